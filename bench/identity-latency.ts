/**
 * Latency of the identity engine on this machine, p50/p95 (figures, not a timed test):
 * - a liveness frame (decode, detect + mesh + iris, gates, duplicate check, DB state), all frames of
 *   genuine sessions, and separately the frames that also computed the 1024-d description;
 * - a liveness request as the browser's frame policy sends it (several small frames);
 * - a face-identification frame with its embedding, against 1,000 enrolled patients;
 * - a document (front face vs selfie, MRZ cascade, printed fields), clean and degraded cards.
 *   npx tsx bench/identity-latency.ts
 */
import { enrollFace } from '../server/identity/engine';
import {
  DEGRADATIONS,
  degrade,
  makePeople,
  renderBack,
  renderFront,
} from '../tests/fixtures/cedula';
import { blinkSequence, cameraFrame, fixture } from '../tests/identity/frames';
import { selfieFramePolicy as policy } from '../contract/frame-policy';
import { runIfMain, startBench, summary, timed } from './_identity';
import { capture, makePatient, runClient } from './_patient';

export async function main() {
  const b = await startBench({}, true);
  try {
    // Liveness: 6 genuine sessions of 12 frames, sent one at a time as the browser does.
    const all: number[] = [];
    const described: number[] = [];
    const plain: number[] = [];
    for (let s = 0; s < 6; s++) {
      const { sessionId } = await b.engine.startSession(b.db);
      const frames = await blinkSequence(3, 5000 + s);
      for (const [i, f] of frames.entries()) {
        b.clock.now += 700;
        const { ms } = await timed(() => b.engine.livenessFrame(b.db, sessionId, f));
        if (s === 0 && i === 0) continue; // first frame of the run: JIT warm-up of the main thread
        all.push(ms);
        // The first frame (the session's reference face) and reopening frames compute the description.
        const withDescription = i === 0 || (i >= 3 && (i - 3) % 3 === 1);
        (withDescription ? described : plain).push(ms);
      }
    }
    console.log(
      'liveness frame, all frames of genuine sessions (ms):',
      JSON.stringify(summary(all)),
    );
    console.log('  frames without a description (ms):', JSON.stringify(summary(plain)));
    console.log(
      '  frames with the 1024-d description (first frame, reopening) (ms):',
      JSON.stringify(summary(described)),
    );

    // Liveness requests as the browser sends them (frame policy: the frames captured since the last
    // poll, 160 px oval crops), simulated patients until they pass or 15 s.
    const requests: number[] = [];
    for (let i = 0; i < 4; i++) {
      const p = makePatient(7000 + i, 15_000);
      const { sessionId } = await b.engine.startSession(b.db);
      await runClient(
        policy,
        (t) => capture(p, t, policy),
        async (frames) => {
          b.clock.now += policy.pollEveryMs;
          const { ms, value } = await timed(() => b.engine.livenessFrames(b.db, sessionId, frames));
          requests.push(ms);
          return value.liveness_detected;
        },
        15_000,
        0,
      );
    }
    console.log(
      `liveness request of ${policy.maxWidth} px frames (${policy.captureEveryMs} ms captures per ${policy.pollEveryMs} ms poll) (ms):`,
      JSON.stringify(summary(requests)),
    );

    // Identification: 1,000 enrolled patients (3 real faces among synthetic embeddings).
    for (let i = 0; i < 1000; i++) {
      const { rows } = await b.db.query<{ id: string }>(
        "INSERT INTO patients (numero_documento, nombre, apellido, pin_hash) VALUES ($1, 'N', 'A', 'x') RETURNING id::text AS id",
        [String(2_000_000 + i)],
      );
      const emb =
        i < 3
          ? (
              await b.engine.analyze(
                fixture('faces', ['blink-open.jpg', 'person-02.jpg', 'person-09.jpg'][i]!),
              )
            ).faces[0]!.embedding!
          : Array.from({ length: 1024 }, () => Math.random() - 0.5);
      await enrollFace(b.db, rows[0]!.id, emb);
    }
    const ident: number[] = [];
    let found = 0;
    for (let i = 0; i < 30; i++) {
      const frame = await cameraFrame('blink-open.jpg', { seed: 9000 + i });
      const { ms, value } = await timed(() => b.engine.identify(b.db, frame));
      ident.push(ms);
      if (value.match) found++;
    }
    console.log(
      `identification frame with embedding, 1:N over 1000 enrolled (ms): ${JSON.stringify(summary(ident))}; matched ${found}/30`,
    );

    // Documents: a live session's selfie, then fronts + backs.
    const { sessionId } = await b.engine.startSession(b.db);
    for (const f of await blinkSequence(3, 6100)) {
      b.clock.now += 700;
      await b.engine.livenessFrame(b.db, sessionId, f);
    }
    const selfie = fixture('faces', 'blink-open.jpg');
    const docs: number[] = [];
    const docsDegraded: number[] = [];
    for (const [i, p] of makePeople(8, 31).entries()) {
      const front = await renderFront(p, selfie);
      const back = await renderBack(p);
      // scanDocument completes the session; measure on a copy of the live state each time.
      await b.db.query(
        "UPDATE kyc_sessions SET status = 'live', completed_at = NULL, result = NULL WHERE id = $1",
        [sessionId],
      );
      docs.push((await timed(() => b.engine.scanDocument(b.db, sessionId, { front, back }))).ms);
      const d = DEGRADATIONS[i % DEGRADATIONS.length]!;
      await b.db.query(
        "UPDATE kyc_sessions SET status = 'live', completed_at = NULL, result = NULL WHERE id = $1",
        [sessionId],
      );
      const [dFront, dBack] = await Promise.all([degrade(front, d, i), degrade(back, d, i)]);
      docsDegraded.push(
        (await timed(() => b.engine.scanDocument(b.db, sessionId, { front: dFront, back: dBack })))
          .ms,
      );
    }
    console.log('document, clean cards (ms):', JSON.stringify(summary(docs)));
    console.log('document, degraded cards (ms):', JSON.stringify(summary(docsDegraded)));
    console.log(
      'targets: liveness p95 <= 150 ms, identification p95 <= 300 ms, document p95 <= 3000 ms',
    );
  } finally {
    await b.close();
  }
}

runIfMain(import.meta.url, main);

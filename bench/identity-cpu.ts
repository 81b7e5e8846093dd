/**
 * CPU time of the identity work in the real server process (the issue's headline figures): server/main.ts
 * as `npm run serve` runs it (NODE_ENV=production, PGlite in a data folder, the identity workers warmed
 * at start), driven over HTTP, CPU time of the whole process tree read from /proc (the API process
 * with its worker threads, and its child processes) before and after each block:
 *   - selfie liveness: start-kyc, then a simulated patient blinking in front of a 30 fps camera
 *     (bench/_patient.ts), captured and grouped by the browser's own frame policy
 *     (contract/frame-policy.ts: a frame every 125 ms, 6 per 700 ms poll), sent as multipart
 *     requests of repeated `frame` parts until the answer says live (or the 15 s of captures run
 *     out). CPU per request and per frame. Every session is a new patient (frames already seen in
 *     another session would be replays);
 *   - kiosk: POST /api/liveness/start, then the kiosk's frames (a 480x480 square crop of the 640x480
 *     camera, JPEG 0.92, one per request: machines/face-login/face-login.actors.ts) of one blink until the
 *     decision (liveness + 1:N among KIOSK_GALLERY enrolled faces, the kiosk's face among them), then
 *     stop. CPU per frame and per recognition (from start to the deciding frame's answer); the first
 *     recognition after start-up (it loads the gallery) is printed apart.
 * Requests are sent back to back, one in flight: the CPU time of a request does not depend on the
 * pace. The split main thread (event loop: HTTP, PGlite, logs) / other threads (face workers, libuv's
 * pool, V8) comes from /proc/<pid>/task. The server's own timings (its `liveness_frames`, `identify`
 * and `face_auth_decision` log lines) say where the time went. Several rounds; medians of the
 * rounds' figures; the load average is printed with them (the machine may be shared: CPU time is the
 * comparable figure, wall-clock is not). Figures, not a test.
 *
 * Every round runs both cameras of bench/_patient.ts, each with patients of its own: 'bench' (the
 * first synthetic camera; the kiosk's frames are the fixtures' hand-held captures, open x3 then a
 * blink) and 'real' (as costly as hand-held footage: sway, a wandering tremor of 1-2 px per frame,
 * noise 3.5 grey, the camera's JPEG 0.7 before the browser's own; the kiosk films the patient every
 * 300 ms until the decision, blinking when he does). Per frame, from the server's log: frames skipped
 * as unchanged, the worker's detections (fresh, tracked, tracked ones redone, described), decode
 * and model time.
 *
 *   npx tsx bench/identity-cpu.ts [rounds=3]
 * KIOSK_GALLERY (1000), CPU_SELFIE_SESSIONS per round (2), CPU_KIOSK_SESSIONS per round (6),
 * IDENTITY_POOL_SIZE (the server's default: every core).
 */
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import sharp from 'sharp';
import { faceLoginFrameResponse, faceLoginParts, faceLoginPaths } from '../contract/face-login';
import { identityParts, identityPaths } from '../contract/identity';
import { selfieFramePolicy as policy } from '../contract/frame-policy';
import { openDb } from '../server/db/client';
import { loadIdentityConfig } from '../server/identity/config';
import { createIdentityEngine } from '../server/identity/engine';
import { EMBEDDING_MODEL } from '../server/identity/store';
import { blinkSequence, fixture } from '../tests/identity/frames';
import { gaussian, kioskFrame } from './_identity';
import { capture, eyesAt, makePatient, realCameraFrame, runClient, type Camera } from './_patient';
import {
  cpuSeconds,
  descendants,
  runIfMain,
  startApiProcess,
  withPgliteFolder,
  type ApiProcess,
} from './_process';

const ROUNDS = Number(process.argv[2] ?? 3);
const GALLERY = Number(process.env.KIOSK_GALLERY ?? 1000);
const SELFIE_SESSIONS = Number(process.env.CPU_SELFIE_SESSIONS ?? 2);
const KIOSK_SESSIONS = Number(process.env.CPU_KIOSK_SESSIONS ?? 6);
/** Simulated time of one selfie patient's captures. */
const SELFIE_MS = 15_000;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length ? (s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2) : Number.NaN;
};
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const r0 = (x: number) => Math.round(x);

/** CPU seconds of the process tree, and of the API process' main thread (its event loop) alone. */
type Cpu = { tree: number; main: number };
function treeCpu(pid: number): Cpu {
  let tree = cpuSeconds(pid);
  for (const c of descendants(pid)) {
    try {
      tree += cpuSeconds(c);
    } catch {
      // gone since listed
    }
  }
  return { tree, main: mainThreadSeconds(pid) };
}
/** CPU seconds of a process' main thread (/proc/<pid>/task/<pid>/stat: utime + stime, 100 Hz). */
function mainThreadSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
function cpuSince(pid: number, from: Cpu): Cpu {
  const now = treeCpu(pid);
  return { tree: (now.tree - from.tree) * 1000, main: (now.main - from.main) * 1000 };
}

/**
 * Descriptions to enrol: the fixture faces' own (the kiosk's face, blink-open.jpg, among them, so
 * that its sessions are recognised), made by an engine in this process before the server starts, and
 * synthetic ones around them up to `count` (as bench/kiosk-latency.ts makes them).
 */
async function galleryDescriptions(count: number): Promise<number[][]> {
  const engine = await createIdentityEngine(loadIdentityConfig({ IDENTITY_POOL_SIZE: '1' }), {
    ocr: false,
  });
  const names = readdirSync(new URL('../tests/fixtures/faces/', import.meta.url))
    .filter((n) => /^(blink-open|person-\d+)\.jpg$/.test(n))
    .sort();
  const real: number[][] = [];
  try {
    for (const n of names) {
      const f = await engine.analyze(fixture('faces', n));
      if (f.faces[0]?.embedding) real.push(f.faces[0].embedding);
    }
  } finally {
    await engine.close();
  }
  const mean = real[0]!.map((_, j) => sum(real.map((v) => v[j]!)) / real.length);
  const g = gaussian(42);
  const out = real.slice(0, count);
  while (out.length < count) {
    const w = real.map(() => g());
    out.push(
      mean.map((m, j) => m + sum(real.map((v, k) => w[k]! * (v[j]! - m))) * 0.35 + g() * 0.02),
    );
  }
  return out;
}

/** Patients and their enrolled faces, written to the data folder before the server opens it. */
async function enrol(dataDir: string, descriptions: number[][]) {
  const db = await openDb({ dataDir });
  try {
    await db.query(
      `INSERT INTO patients (numero_documento, nombre, apellido, pin_hash)
       SELECT (3000000 + i)::text, 'PACIENTE', 'SINTETICO ' || i, 'x' FROM generate_series(1, $1::int) i`,
      [descriptions.length],
    );
    const ids = (
      await db.query<{ id: string }>(
        `SELECT id::text AS id FROM patients WHERE numero_documento LIKE '3%' ORDER BY id`,
      )
    ).rows;
    for (let i = 0; i < ids.length; i += 500) {
      const batch = ids.slice(i, i + 500).map((r, k) => ({ id: r.id, emb: descriptions[i + k]! }));
      await db.query(
        `INSERT INTO face_enrollments (patient_id, embedding, model)
         SELECT (e->>'id')::bigint, ARRAY(SELECT jsonb_array_elements_text(e->'emb')::real), $2
           FROM jsonb_array_elements($1::jsonb) e`,
        [JSON.stringify(batch), EMBEDDING_MODEL],
      );
    }
  } finally {
    await db.close();
  }
}

/** The requests one selfie patient's browser sends over SELFIE_MS (the frame policy's poll groups). */
async function selfieRequests(seed: number, camera: Camera): Promise<Buffer[][]> {
  const patient = makePatient(seed, SELFIE_MS, false, camera);
  const { requests } = await runClient(
    policy,
    (t) => capture(patient, t, policy),
    async () => false,
    SELFIE_MS,
    0,
  );
  return requests.map((r) => r.frames);
}

/** Camera frames (30 fps) between two kiosk frames (FACE_LOGIN_INTERVAL_MS, 300 ms). */
const KIOSK_EVERY = 9;
/** At most this many frames of a 'real' kiosk session (9 s). */
const KIOSK_MAX_FRAMES = 30;
/**
 * One kiosk session's frames as the kiosk sends them (kioskFrame: the 480x480 square, JPEG 0.92):
 * the 'bench' camera's hand-held captures of the fixtures, open x3 then a blink; or a 'real'
 * camera filming a patient who blinks when he does (bench/_patient.ts: 1.5-4 s apart), a frame
 * every 300 ms (a closed phase between two frames is not seen).
 */
async function kioskFrames(seed: number, camera: Camera): Promise<Buffer[]> {
  if (camera === 'bench') return Promise.all((await blinkSequence(1, seed)).map(kioskFrame));
  const patient = makePatient(seed, KIOSK_MAX_FRAMES * KIOSK_EVERY * (1000 / 30), false, camera);
  const whole = { left: 0, top: 0, width: 640, height: 480 };
  return Promise.all(
    Array.from({ length: KIOSK_MAX_FRAMES }, async (_, i) =>
      kioskFrame(
        await realCameraFrame(
          patient,
          i * KIOSK_EVERY,
          eyesAt(patient, (i * KIOSK_EVERY * 1000) / 30),
          640,
          whole,
        ),
      ),
    ),
  );
}

/** The server's log lines this bench reads (timings only; the server never logs images). */
type LogTotals = {
  requests: number;
  frames: number;
  skipped: number;
  duplicates: number;
  analyseMs: number;
  decodeMs: number;
  detectMs: number;
  replayMs: number;
  totalMs: number;
  identifyMs: number[];
  /** The worker's detections (fresh, tracked, tracked ones redone fresh, described). */
  fresh: number;
  tracked: number;
  redone: number;
  described: number;
};
const emptyTotals = (): LogTotals => ({
  requests: 0,
  frames: 0,
  skipped: 0,
  duplicates: 0,
  analyseMs: 0,
  decodeMs: 0,
  detectMs: 0,
  replayMs: 0,
  totalMs: 0,
  identifyMs: [],
  fresh: 0,
  tracked: 0,
  redone: 0,
  described: 0,
});
function listen(server: ApiProcess) {
  let totals = emptyTotals();
  let buf = '';
  server.child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    let i;
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      if (!line.includes('"event":"liveness_frames"') && !line.includes('"event":"identify"'))
        continue;
      let o: Record<string, unknown>;
      try {
        o = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      if (o.event === 'identify') {
        totals.identifyMs.push(Number(o.ms));
        continue;
      }
      const ms = o.ms as Record<string, number>;
      const steps = o.frames as Array<{ skipped?: unknown; duplicate?: boolean }>;
      totals.requests++;
      totals.frames += steps.length;
      totals.skipped += steps.filter((s) => s.skipped).length;
      totals.duplicates += steps.filter((s) => s.duplicate).length;
      totals.analyseMs += ms.analyse!;
      totals.decodeMs += ms.decode!;
      totals.detectMs += ms.detect!;
      totals.replayMs += ms.replayCheck!;
      totals.totalMs += ms.total!;
      const d = o.detections as Record<'fresh' | 'tracked' | 'redone' | 'described', number>;
      totals.fresh += d.fresh;
      totals.tracked += d.tracked;
      totals.redone += d.redone;
      totals.described += d.described;
    }
  });
  return {
    take() {
      const t = totals;
      totals = emptyTotals();
      return t;
    },
  };
}

let address = 0;
/** Every session from its own client address (as behind the proxy): per-address limits stay out of it. */
const nextAddress = () => {
  const n = address++;
  return { 'x-forwarded-for': `10.7.${Math.floor(n / 250) % 250}.${(n % 250) + 1}` };
};

async function selfieSession(url: string, requests: Buffer[][]) {
  const headers = nextAddress();
  const start = await fetch(`${url}${identityPaths.startKyc}`, { method: 'POST', headers });
  const { session_id: sid } = (await start.json()) as { session_id?: string };
  if (start.status !== 200 || !sid) throw new Error(`start-kyc answered ${start.status}`);
  let sent = 0;
  let frames = 0;
  for (const req of requests) {
    const form = new FormData();
    form.append('session_id', sid);
    for (const [k, f] of req.entries())
      form.append(
        identityParts.frame,
        new Blob([new Uint8Array(f)], { type: 'image/jpeg' }),
        `f${k}.jpg`,
      );
    const res = await fetch(`${url}${identityPaths.liveness}`, {
      method: 'POST',
      headers,
      body: form,
    });
    const body = (await res.json()) as { liveness_detected?: boolean };
    if (res.status !== 200) throw new Error(`liveness answered ${res.status}`);
    sent++;
    frames += req.length;
    if (body.liveness_detected) return { requests: sent, frames, live: true };
  }
  return { requests: sent, frames, live: false };
}

type KioskRecord = {
  frameCpu: number[];
  /** CPU of the n-th frame of a session (the first carries the reference description). */
  byPosition: number[][];
  recognitionCpu: number[];
  recognised: number;
};
const kioskRecord = (): KioskRecord => ({
  frameCpu: [],
  byPosition: [],
  recognitionCpu: [],
  recognised: 0,
});
async function kioskSession(server: ApiProcess, frames: Buffer[], rec: KioskRecord) {
  const paths = faceLoginPaths();
  const headers = { ...nextAddress(), 'content-type': 'application/json' };
  const c0 = treeCpu(server.pid);
  const start = await fetch(`${server.url}${paths.start}`, { method: 'POST', headers, body: '{}' });
  const { session_id: sid } = (await start.json()) as { session_id?: string };
  if (start.status !== 200 || !sid) throw new Error(`kiosk start answered ${start.status}`);
  let decided = false;
  for (const [i, f] of frames.entries()) {
    const form = new FormData();
    form.append(faceLoginParts.sessionId, sid);
    form.append(
      faceLoginParts.frame,
      new Blob([new Uint8Array(f)], { type: 'image/jpeg' }),
      faceLoginParts.filename,
    );
    const f0 = treeCpu(server.pid);
    const res = await fetch(`${server.url}${paths.frame}`, {
      method: 'POST',
      headers: { 'x-forwarded-for': headers['x-forwarded-for'] },
      body: form,
    });
    if (res.status !== 200) throw new Error(`kiosk frame answered ${res.status}`);
    const body = faceLoginFrameResponse.parse(await res.json());
    const cpu = cpuSince(server.pid, f0).tree;
    rec.frameCpu.push(cpu);
    (rec.byPosition[i] ??= []).push(cpu);
    if (body.stage !== 'liveness') {
      decided = true;
      rec.recognitionCpu.push(cpuSince(server.pid, c0).tree);
      if (body.stage === 'authenticated') rec.recognised++;
      break;
    }
  }
  await fetch(`${server.url}${paths.stop}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ session_id: sid }),
  });
  return decided;
}

const CAMERAS: Camera[] = ['bench', 'real'];
/** Per frame of a block: what the worker did (from the server's log). */
const perFrame = (l: LogTotals) => {
  const n = Math.max(1, l.frames);
  return {
    skippedPct: (100 * l.skipped) / n,
    freshPerFrame: l.fresh / n,
    trackedPerFrame: l.tracked / n,
    redonePerFrame: l.redone / n,
    describedPerFrame: l.described / n,
    decodeMsPerFrame: l.decodeMs / n,
    detectMsPerFrame: l.detectMs / n,
  };
};

export async function main() {
  console.log(
    `identity-cpu: ${ROUNDS} rounds of ${SELFIE_SESSIONS} selfie sessions and ${KIOSK_SESSIONS} kiosk sessions per camera (${CAMERAS.join(', ')}); ${GALLERY} enrolled; ${os.cpus().length} cores; load average ${load()}`,
  );
  // Off the clock: every round's patients and kiosk frames, and the gallery.
  const t0 = performance.now();
  const selfie = {} as Record<Camera, Buffer[][][]>;
  const kiosk = {} as Record<Camera, Buffer[][]>;
  for (const camera of CAMERAS) {
    selfie[camera] = [];
    for (let i = 0; i < (ROUNDS + 1) * SELFIE_SESSIONS; i++)
      selfie[camera].push(await selfieRequests(31_000 + i, camera));
    kiosk[camera] = [];
    for (let i = 0; i < (ROUNDS + 1) * KIOSK_SESSIONS + 1; i++)
      kiosk[camera].push(await kioskFrames(9000 + i, camera));
  }
  const descriptions = await galleryDescriptions(GALLERY);
  for (const camera of CAMERAS)
    console.log(
      `  camera '${camera}': ${selfie[camera].length} selfie patients (${sum(selfie[camera].map((s) => s.length))} requests, frames per request ${median(selfie[camera].flat().map((r) => r.length))}, frame ${(median(selfie[camera].flat(2).map((f) => f.length)) / 1024).toFixed(1)} KB), ${kiosk[camera].length} kiosk sessions (frame ${Math.round(median(kiosk[camera].flat().map((f) => f.length)) / 1024)} KB, ${(await sharp(kiosk[camera][0]![0]!).metadata()).width} px square)`,
    );
  console.log(
    `  ${descriptions.length} descriptions; made in ${Math.round((performance.now() - t0) / 1000)} s`,
  );
  await withPgliteFolder(0, async (dataDir) => {
    await enrol(dataDir, descriptions);
    const server = await startApiProcess({
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      SMS_PROVIDER: 'outbox',
      ONBOARDING_PUBLIC_URL: 'https://salud.example.test',
      TRUST_PROXY: '127.0.0.1',
      FACE_AUTH_REQUIRE_DEVICE: 'false',
      FACE_AUTH_FRAMES_PER_MINUTE: '1000000',
      FACE_AUTH_SESSIONS_PER_MINUTE: '1000000',
      IDENTITY_START_PER_ADDRESS_MINUTE: '1000000',
      IDENTITY_START_PER_ADDRESS_HOUR: '1000000',
      // The blink-only mode: these selfie patients blink at fixed times, untagged (the challenge's
      // CPU per frame, with its cues and colours, is bench/liveness-challenge.ts').
      IDENTITY_LIVENESS_CHALLENGE: 'none',
    });
    const logs = listen(server);
    try {
      await server.logged('identity_ready');
      // Warm-up (lazy modules, JIT, the first model calls on the request path), then the first
      // recognition after start: it loads the gallery.
      await selfieSession(server.url, selfie.bench[0]!.slice(0, 4));
      const first = kioskRecord();
      await kioskSession(server, kiosk.bench[0]!, first);
      console.log(
        `  first recognition after start (loads the ${GALLERY}-face gallery): ${r0(first.recognitionCpu[0] ?? NaN)} ms CPU (recognised: ${first.recognised === 1}); load ${load()}`,
      );
      logs.take();

      const rounds: Record<Camera, Array<Record<string, number | string>>> = {
        bench: [],
        real: [],
      };
      const byPosition: Record<Camera, number[][]> = { bench: [], real: [] };
      for (let r = 0; r < ROUNDS; r++) {
        for (const camera of CAMERAS) {
          // Selfie block.
          const s0 = treeCpu(server.pid);
          let requests = 0;
          let frames = 0;
          let live = 0;
          for (let k = 0; k < SELFIE_SESSIONS; k++) {
            const res = await selfieSession(
              server.url,
              selfie[camera][(r + 1) * SELFIE_SESSIONS + k]!,
            );
            requests += res.requests;
            frames += res.frames;
            if (res.live) live++;
          }
          const sc = cpuSince(server.pid, s0);
          const sl = logs.take();
          const selfieLoad = load();
          // Kiosk block.
          const k0 = treeCpu(server.pid);
          const rec = kioskRecord();
          for (let k = 0; k < KIOSK_SESSIONS; k++)
            await kioskSession(server, kiosk[camera][1 + r * KIOSK_SESSIONS + k]!, rec);
          const kc = cpuSince(server.pid, k0);
          rec.byPosition.forEach((xs, i) => (byPosition[camera][i] ??= []).push(...xs));
          const kl = logs.take();
          const prefixed = (prefix: string, o: Record<string, number>) =>
            Object.fromEntries(Object.entries(o).map(([k, v]) => [prefix + k, v]));
          rounds[camera].push({
            selfieCpuPerRequest: sc.tree / requests,
            selfieCpuPerFrame: sc.tree / frames,
            selfieMainThreadPerRequest: sc.main / requests,
            selfieRequests: requests,
            selfieFrames: frames,
            selfieFramesPerRequest: frames / requests,
            selfiePassed: `${live}/${SELFIE_SESSIONS}`,
            ...prefixed('selfie_', perFrame(sl)),
            selfieAnalyseMsPerRequest: sl.analyseMs / Math.max(1, sl.requests),
            selfieDetectMsPerRequest: sl.detectMs / Math.max(1, sl.requests),
            selfieDecodeMsPerRequest: sl.decodeMs / Math.max(1, sl.requests),
            selfieReplayMsPerRequest: sl.replayMs / Math.max(1, sl.requests),
            selfieLoad,
            kioskCpuPerFrame: sum(rec.frameCpu) / rec.frameCpu.length,
            kioskCpuPerFrameMedian: median(rec.frameCpu),
            kioskCpuPerRecognition: median(rec.recognitionCpu),
            kioskMainThreadPerFrame: kc.main / rec.frameCpu.length,
            kioskFrames: rec.frameCpu.length,
            kioskRecognised: `${rec.recognised}/${KIOSK_SESSIONS}`,
            ...prefixed('kiosk_', perFrame(kl)),
            kioskAnalyseMsPerFrame: kl.analyseMs / Math.max(1, kl.requests),
            kioskReplayMsPerFrame: kl.replayMs / Math.max(1, kl.requests),
            kioskIdentifyMs: median(kl.identifyMs),
            kioskLoad: load(),
          });
          const row = rounds[camera].at(-1)!;
          console.log(
            `  round ${r + 1} camera '${camera}': ` +
              JSON.stringify(
                Object.fromEntries(
                  Object.entries(row).map(([k, v]) => [
                    k,
                    typeof v === 'number' ? Number(v.toFixed(2)) : v,
                  ]),
                ),
              ),
          );
        }
      }
      for (const camera of CAMERAS) {
        const med = (k: string, digits = 0) =>
          median(rounds[camera].map((x) => x[k] as number)).toFixed(digits);
        console.log(`camera '${camera}':`);
        console.log(
          `  selfie liveness (6-frame requests as the browser sends them): CPU per request ${med('selfieCpuPerRequest')} ms, per frame ${med('selfieCpuPerFrame', 1)} ms` +
            ` (main thread ${med('selfieMainThreadPerRequest')} ms per request; per frame: skipped as unchanged ${med('selfie_skippedPct')}%,` +
            ` detections fresh ${med('selfie_freshPerFrame', 2)} tracked ${med('selfie_trackedPerFrame', 2)} redone ${med('selfie_redonePerFrame', 2)}, described ${med('selfie_describedPerFrame', 2)},` +
            ` decode ${med('selfie_decodeMsPerFrame', 1)} ms, models ${med('selfie_detectMsPerFrame', 1)} ms; replay check ${med('selfieReplayMsPerRequest')} ms per request)`,
        );
        console.log(
          `  kiosk (480x480 JPEG 0.92, one frame per request): CPU per frame ${med('kioskCpuPerFrame', 1)} ms (median frame ${med('kioskCpuPerFrameMedian')} ms; main thread ${med('kioskMainThreadPerFrame')} ms),` +
            ` per recognition (start to decision) ${med('kioskCpuPerRecognition')} ms with ${GALLERY} enrolled` +
            ` (per frame: skipped ${med('kiosk_skippedPct')}%, fresh ${med('kiosk_freshPerFrame', 2)} redone ${med('kiosk_redonePerFrame', 2)} described ${med('kiosk_describedPerFrame', 2)},` +
            ` decode ${med('kiosk_decodeMsPerFrame', 1)} ms, models ${med('kiosk_detectMsPerFrame', 1)} ms, replay check ${med('kioskReplayMsPerFrame')} ms; 1:N search ${med('kioskIdentifyMs')} ms)`,
        );
        console.log(
          `  kiosk CPU by frame of the session (median ms; the last one decides and identifies): ${byPosition[camera].map((xs, i) => `#${i + 1} ${r0(median(xs))} (n=${xs.length})`).join(', ')}`,
        );
      }
      console.log(`medians of ${ROUNDS} rounds; load average now ${load()}`);
    } finally {
      await server.stop();
    }
  });
}

runIfMain(import.meta.url, main);

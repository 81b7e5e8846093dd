/**
 * Accuracy report of the identity engine on the fixtures (figures, not a test):
 * - liveness: genuine 3-blink sequences accepted; replayed, duplicated, re-encoded and still-photo
 *   sequences accepted (target 0);
 * - MRZ: synthetic cédulas read with every field right, clean (target 100%) and degraded (>= 90%);
 * - face similarity: genuine and impostor ranges, the configured thresholds and what they accept.
 *   npx tsx bench/identity-accuracy.ts [cards]
 */
import sharp from 'sharp';
import {
  DEGRADATIONS,
  degrade,
  expectedIdData,
  nameReadRight,
  printedFullName,
  makePeople,
  renderBack,
  renderFront,
} from '../tests/fixtures/cedula';
import { blinkSequence, cameraFrame, fixture } from '../tests/identity/frames';
import { cosineSimilarity } from '../server/identity/types';
import { runIfMain, startBench, type Bench } from './_identity';

async function session(b: Bench, frames: Buffer[]): Promise<boolean> {
  const { sessionId } = await b.engine.startSession(b.db);
  let live = false;
  for (const f of frames) {
    b.clock.now += 700;
    live = (await b.engine.livenessFrame(b.db, sessionId, f)).liveness_detected || live;
  }
  return live;
}

async function liveness(b: Bench) {
  const genuine: Buffer[][] = [];
  for (let s = 0; s < 12; s++) genuine.push(await blinkSequence(3, 20_000 + s));
  let accepted = 0;
  for (const g of genuine) if (await session(b, g)) accepted++;
  console.log(`liveness: genuine 3-blink sequences accepted ${accepted}/${genuine.length}`);

  const attacks: Record<string, { n: number; accepted: number }> = {};
  const attack = async (name: string, frames: Buffer[]) => {
    const a = (attacks[name] ??= { n: 0, accepted: 0 });
    a.n++;
    if (await session(b, frames)) a.accepted++;
  };
  for (const g of genuine.slice(0, 6)) {
    await attack('replayed (same bytes, new session)', g);
    await attack(
      'replayed, re-encoded (JPEG 90, 94% size)',
      await Promise.all(g.map((f) => sharp(f).resize(600).jpeg({ quality: 90 }).toBuffer())),
    );
    await attack(
      'replayed, brightened and recompressed',
      await Promise.all(g.map((f) => sharp(f).linear(1.08, 6).jpeg({ quality: 75 }).toBuffer())),
    );
  }
  for (let s = 0; s < 6; s++) {
    const g = await blinkSequence(3, 30_000 + s);
    // One genuine blink, then its closing and reopening frames sent again and again.
    await attack('duplicated blink frames', [
      ...g.slice(0, 6),
      g[3]!,
      g[4]!,
      g[3]!,
      g[4]!,
      g[3]!,
      g[4]!,
    ]);
    // A printed photo held to the camera: fresh captures (hand-held), eyes never close.
    await attack(
      'still photo, hand-held captures',
      await Promise.all(
        Array.from({ length: 14 }, (_, i) =>
          cameraFrame('blink-open.jpg', { seed: 40_000 + s * 100 + i }),
        ),
      ),
    );
    // The same photo on a stand: only sensor noise changes.
    await attack(
      'still photo, fixed camera',
      await Promise.all(
        Array.from({ length: 14 }, (_, i) =>
          cameraFrame('blink-open.jpg', { seed: 50_000 + s * 100 + i, still: true }),
        ),
      ),
    );
    // One frame uploaded over and over.
    await attack(
      'one frame sent again',
      Array.from({ length: 14 }, () => g[0]!),
    );
  }
  for (const [name, a] of Object.entries(attacks))
    console.log(`liveness: ${name}: accepted ${a.accepted}/${a.n}`);
  return { genuine: { accepted, n: genuine.length }, attacks };
}

async function mrz(b: Bench, cards: number) {
  const selfie = fixture('faces', 'blink-open.jpg');
  const people = makePeople(cards, 2024);
  const out = {
    clean: { right: 0, n: 0, ms: [] as number[] },
    degraded: { right: 0, n: 0, ms: [] as number[] },
  };
  const misses: string[] = [];
  for (const [i, p] of people.entries()) {
    const front = await renderFront(p, selfie);
    const back = await renderBack(p);
    const d = DEGRADATIONS[i % DEGRADATIONS.length]!;
    const variants = {
      clean: [front, back],
      degraded: [await degrade(front, d, i + 1), await degrade(back, d, i + 1)],
    } as const;
    for (const kind of ['clean', 'degraded'] as const) {
      const t0 = performance.now();
      const r = await b.engine.readDocument(variants[kind][0], variants[kind][1]);
      out[kind].ms.push(performance.now() - t0);
      out[kind].n++;
      const want = expectedIdData(p);
      // The names as printed or as the MRZ writes them (the OCR may or may not read the accents).
      const right =
        r.ok &&
        nameReadRight(r.idData?.FullName, printedFullName(p)) &&
        JSON.stringify({ ...r.idData, FullName: want.FullName }) === JSON.stringify(want);
      if (right) out[kind].right++;
      else
        misses.push(
          `${kind} #${i} ${JSON.stringify(d)}: ${r.error ?? JSON.stringify({ got: r.idData, want })}`,
        );
    }
  }
  for (const kind of ['clean', 'degraded'] as const) {
    const o = out[kind];
    console.log(
      `MRZ ${kind}: all fields right ${o.right}/${o.n} (${Math.round((100 * o.right) / o.n)}%), median ${Math.round(o.ms.sort((a, b) => a - b)[o.ms.length >> 1]!)} ms`,
    );
  }
  for (const m of misses) console.log(`  miss: ${m}`);
  return out;
}

async function similarity(b: Bench) {
  const embed = async (img: Buffer) => {
    const f = await b.engine.analyze(img);
    const main = [...f.faces].sort((x, y) => y.box[2] * y.box[3] - x.box[2] * x.box[3])[0];
    if (!main?.embedding) throw new Error('no face');
    return main.embedding;
  };
  // One identity with many captures: camera frames, closed eyes, the printed card photo, degraded cards, a small copy.
  const cardFront = fixture('cedulas', 'card-1-front.jpg');
  const same: Buffer[] = [
    fixture('faces', 'blink-open.jpg'),
    fixture('faces', 'blink-closed.jpg'),
    ...(await Promise.all(
      [1, 2, 3, 4].map((s) => cameraFrame('blink-open.jpg', { seed: 60_000 + s, noise: 6 })),
    )),
    cardFront,
    ...(await Promise.all(DEGRADATIONS.slice(0, 4).map((d, i) => degrade(cardFront, d, i)))),
    await sharp(fixture('faces', 'blink-open.jpg')).resize(320).jpeg({ quality: 60 }).toBuffer(),
  ];
  const sameEmb = await Promise.all(same.map(embed));
  const genuine: number[] = [];
  for (let i = 0; i < sameEmb.length; i++)
    for (let j = i + 1; j < sameEmb.length; j++)
      genuine.push(cosineSimilarity(sameEmb[i]!, sameEmb[j]!));

  const people = [
    fixture('faces', 'blink-open.jpg'),
    ...Array.from({ length: 21 }, (_, i) =>
      fixture('faces', `person-${String(i + 1).padStart(2, '0')}.jpg`),
    ),
  ];
  const peopleEmb = await Promise.all(people.map(embed));
  const impostor: Array<{ s: number; pair: string }> = [];
  for (let i = 0; i < peopleEmb.length; i++)
    for (let j = i + 1; j < peopleEmb.length; j++)
      impostor.push({ s: cosineSimilarity(peopleEmb[i]!, peopleEmb[j]!), pair: `${i}-${j}` });
  const imp = impostor.map((x) => x.s);
  const gMin = Math.min(...genuine);
  const iMax = Math.max(...imp);
  const f = (x: number) => x.toFixed(3);
  console.log(
    `similarity: genuine pairs ${genuine.length}, range ${f(gMin)}..${f(Math.max(...genuine))}`,
  );
  console.log(
    `similarity: impostor pairs ${imp.length}, range ${f(Math.min(...imp))}..${f(iMax)} (highest: ${impostor
      .sort((a, b) => b.s - a.s)
      .slice(0, 3)
      .map((x) => `${x.pair}=${f(x.s)}`)
      .join(', ')})`,
  );
  const c = b.config;
  for (const [name, t] of [
    ['1:N match', c.matchThreshold],
    ['document vs selfie', c.documentMatchThreshold],
    ['session continuity', c.continuityThreshold],
  ] as const) {
    console.log(
      `threshold ${name} = ${t}: impostor pairs accepted ${imp.filter((s) => s >= t).length}/${imp.length}, genuine pairs rejected ${genuine.filter((s) => s < t).length}/${genuine.length}`,
    );
  }
  console.log(
    `gap between worst genuine and best impostor: ${f(gMin - iMax)} (midpoint ${f((gMin + iMax) / 2)})`,
  );
  return { genuine: [gMin, Math.max(...genuine)], impostor: [Math.min(...imp), iMax] };
}

export async function main() {
  const cards = Number(process.argv[2] ?? 20);
  const b = await startBench({}, true);
  try {
    const sim = await similarity(b);
    const live = await liveness(b);
    const m = await mrz(b, cards);
    return { sim, live, m };
  } finally {
    await b.close();
  }
}

runIfMain(import.meta.url, main);

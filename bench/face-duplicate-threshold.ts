/**
 * The duplicate-at-registration threshold (issue 44 item 3; IDENTITY_DUPLICATE_FACE_THRESHOLD):
 * false-match and false-non-match rates of a new registration's selfie against enrolled selfies, at
 * a sweep of thresholds. Figures, not a test.
 * - genuine pairs: two selfie-like captures of the same person (camera frames of each fixture face,
 *   different seeds: tilt, scale, shift, sensor noise), as a patient re-registering would send;
 *   plus closed eyes, a small recompressed copy, and person-18 against its other crop (blink-b);
 * - impostor pairs: every ordered pair of the 22 fixture people (one's second capture against the
 *   other's first).
 *   npx tsx bench/face-duplicate-threshold.ts
 */
import os from 'node:os';
import sharp from 'sharp';
import { cameraFrame, fixture } from '../tests/identity/frames';
import { cosineSimilarity } from '../server/identity/types';
import { runIfMain, startBench } from './_identity';

const THRESHOLDS = [0.6, 0.62, 0.64, 0.66, 0.68, 0.7, 0.72, 0.74, 0.76, 0.78, 0.8];

export async function main() {
  const b = await startBench({}, true);
  try {
    const embed = async (img: Buffer) => {
      const f = await b.engine.analyze(img);
      const main = [...f.faces].sort((x, y) => y.box[2] * y.box[3] - x.box[2] * x.box[3])[0];
      if (!main?.embedding) throw new Error('no face');
      return main.embedding;
    };
    // 22 people (blink-b is person-18's crop: a genuine pair below, not an impostor).
    const names = [
      'blink-open.jpg',
      ...Array.from({ length: 21 }, (_, i) => `person-${String(i + 1).padStart(2, '0')}.jpg`),
    ];
    // Two captures per person: what an enrolment kept and what a new registration sends.
    const captures: number[][][] = [];
    for (const [i, name] of names.entries()) {
      const a = await embed(await cameraFrame(name, { seed: 71_000 + i, noise: 6 }));
      const c = await embed(await cameraFrame(name, { seed: 72_000 + i, noise: 8 }));
      captures.push([Array.from(a), Array.from(c)]);
    }
    const genuine = captures.map(([a, c]) => cosineSimilarity(a!, c!));
    const extra = [
      fixture('faces', 'blink-closed.jpg'),
      await sharp(fixture('faces', 'blink-open.jpg')).resize(320).jpeg({ quality: 60 }).toBuffer(),
    ];
    for (const img of extra) genuine.push(cosineSimilarity(captures[0]![0]!, await embed(img)));
    // The same person cropped and sharpened otherwise (person-18 and its blink-b crop).
    const p18 = names.indexOf('person-18.jpg');
    genuine.push(
      cosineSimilarity(
        captures[p18]![0]!,
        await embed(await cameraFrame('blink-b-open.jpg', { seed: 73_000, noise: 6 })),
      ),
    );
    const pairs: Array<{ s: number; pair: string }> = [];
    for (let i = 0; i < captures.length; i++)
      for (let j = 0; j < captures.length; j++)
        if (i !== j)
          pairs.push({
            s: cosineSimilarity(captures[i]![1]!, captures[j]![0]!),
            pair: `${names[i]}~${names[j]}`,
          });
    const impostor = pairs.map((p) => p.s);
    const f = (x: number) => x.toFixed(3);
    console.log(
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    console.log(
      `genuine pairs ${genuine.length}: ${f(Math.min(...genuine))}..${f(Math.max(...genuine))}`,
    );
    console.log(
      `impostor pairs ${impostor.length}: ${f(Math.min(...impostor))}..${f(Math.max(...impostor))}`,
    );
    console.log(
      `highest impostors: ${[...pairs]
        .sort((a, b) => b.s - a.s)
        .slice(0, 4)
        .map((p) => `${p.pair} ${f(p.s)}`)
        .join(', ')}`,
    );
    for (const t of THRESHOLDS) {
      const fm = impostor.filter((s) => s >= t).length;
      const fnm = genuine.filter((s) => s < t).length;
      console.log(
        `threshold ${t.toFixed(2)}: false match ${fm}/${impostor.length} (${((100 * fm) / impostor.length).toFixed(2)}%), false non-match ${fnm}/${genuine.length} (${((100 * fnm) / genuine.length).toFixed(2)}%)`,
      );
    }
    return { genuine, impostor };
  } finally {
    await b.close();
  }
}

runIfMain(import.meta.url, main);

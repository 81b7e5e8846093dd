/**
 * The outside probe's OCR hold (issue 21, item 1), figures not a test: a back of random pixels
 * (1012x638, about 413 KB as the probe sent; and 2000x1260, about 1.3 MB) read with a genuine front,
 * then a genuine card read right after it, as the document queue runs them (one at a time). Before the
 * fix the noise back held the OCR for 247-312 s. Prints each read's time and the load average.
 *   npx tsx bench/document-noise.ts
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { loadIdentityConfig } from '../server/identity/config';
import { createDocumentReader } from '../server/identity/document';
import { rng } from '../tests/fixtures/cedula';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const card = (f: string) => readFileSync(path.join(root, 'tests/fixtures/cedulas', `${f}.jpg`));
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function noise(width: number, height: number): Promise<Buffer> {
  const r = rng(width);
  const data = Buffer.alloc(width * height * 3);
  for (let i = 0; i < data.length; i++) data[i] = Math.floor(r() * 256);
  return sharp(data, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92 })
    .toBuffer();
}

const config = loadIdentityConfig(process.env);
const reader = createDocumentReader(config);
await reader.warm();
console.log(`document noise: budget ${config.scanBudgetMs} ms; load ${load()}`);
const timed = async (label: string, front: Buffer, back: Buffer) => {
  const t0 = performance.now();
  const r = await reader.read(await reader.straighten(front), await reader.straighten(back));
  const ms = Math.round(performance.now() - t0);
  console.log(
    `${label}: ${ms} ms, ${r.ok ? 'read' : 'refused'} (OCR passes on the back: ${r.passes})`,
  );
};
for (const [w, h] of [
  [1012, 638],
  [2000, 1260],
]) {
  const back = await noise(w!, h!);
  await timed(
    `noise back ${w}x${h} (${Math.round(back.length / 1024)} KB)`,
    card('card-1-front'),
    back,
  );
  await timed('  the genuine scan right after it', card('card-2-front'), card('card-2-back'));
}
console.log(`load average at the end: ${load()}`);
await reader.close();

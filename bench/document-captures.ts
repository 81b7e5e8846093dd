/**
 * Real photos of the cédula (figures, not a test): the engine's fixture cards photographed on a
 * table (tests/fixtures/capture.ts: rotation up to 10 degrees either way, tilt up to 15, the card at
 * 50-90% of a textured background, blur up to 1.5 px, JPEG quality 40-90, dim and bright, a glare
 * spot away from the MRZ), read by the document reader. Prints the read rate, the false 'not the
 * same cédula' count on genuine cards, every attack's verdict, and the time per read.
 *   npx tsx bench/document-captures.ts [captures per card, default 30] [--cards card-1,card-2]
 * Targets: read rate >= 95%, false mismatches 0, every attack refused.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadIdentityConfig } from '../server/identity/config';
import { createDocumentReader } from '../server/identity/document';
import type { DocumentReading } from '../server/identity/document-verdict';
import { identityMessages } from '../server/identity/errors';
import { captureMatrix, photographCard, type Capture } from '../tests/fixtures/capture';
import { nameReadRight } from '../tests/fixtures/cedula';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixture = (f: string) => readFileSync(path.join(root, 'tests/fixtures', f));
const manifest = JSON.parse(fixture('cedulas/manifest.json').toString()) as Record<
  string,
  { expected: Record<string, string>; printedName: string }
>;

const args = process.argv.slice(2);
const perCard = Number(args.find((a) => /^\d+$/.test(a)) ?? 30);
const only = args.includes('--cards') ? args[args.indexOf('--cards') + 1]!.split(',') : null;
const cards = Object.keys(manifest).filter((c) => !only || only.includes(c));

const reader = createDocumentReader(loadIdentityConfig(process.env));
await reader.warm();

const times: number[] = [];
async function read(front: Uint8Array, back: Uint8Array): Promise<DocumentReading> {
  const t0 = performance.now();
  const r = await reader.read(await reader.straighten(front), await reader.straighten(back));
  times.push(performance.now() - t0);
  return r;
}

const describe = (c: Capture) =>
  `rot ${c.rotate} tilt ${c.tilt} ${c.tiltSide} fill ${c.fill} blur ${c.blur} q ${c.quality} ${c.light}${c.glare ? ' glare' : ''} ${c.background}`;
const outcome = (r: DocumentReading) =>
  r.ok
    ? 'ok'
    : r.error === identityMessages.documentMismatch
      ? 'MISMATCH'
      : r.error?.startsWith(identityMessages.frontUnreadable.split('.')[0]!)
        ? 'front unreadable'
        : r.error?.startsWith(identityMessages.mrzUnreadable.split('.')[0]!)
          ? 'back unreadable'
          : (r.error ?? 'refused');

console.log(
  `document captures: ${cards.length} cards x ${perCard} captures of each side; load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
let genuine = 0;
let readOk = 0;
let falseMismatch = 0;
let maritalRead = 0;
const failures = new Map<string, number>();
for (const [ci, card] of cards.entries()) {
  const fronts = captureMatrix(perCard, 100 + ci);
  const backs = captureMatrix(perCard, 200 + ci);
  let cardOk = 0;
  for (let i = 0; i < perCard; i++) {
    const front = await photographCard(fixture(`cedulas/${card}-front.jpg`), fronts[i]!, i + 1);
    const back = await photographCard(fixture(`cedulas/${card}-back.jpg`), backs[i]!, i + 1001);
    const r = await read(front, back);
    genuine++;
    // Right: every identity field as expected; the names as printed or as the MRZ writes them;
    // 'ESTADO CIVIL' right or '' (not read, as the product records it), counted apart.
    const fieldRight = ([k, v]: [string, string]) =>
      r.idData?.[k as keyof typeof r.idData] === v ||
      (k === 'FullName' && nameReadRight(r.idData?.FullName, manifest[card]!.printedName)) ||
      (k === 'MaritalStatus' && r.idData?.MaritalStatus === '');
    const right = r.ok && Object.entries(manifest[card]!.expected).every(fieldRight);
    if (right && r.idData?.MaritalStatus) maritalRead++;
    if (right) {
      readOk++;
      cardOk++;
    } else {
      const wrong = Object.entries(manifest[card]!.expected)
        .filter((field) => !fieldRight(field))
        .map(([k, v]) => `${k} ${r.idData?.[k as keyof typeof r.idData]} for ${v}`);
      const why = r.ok ? `read with a wrong field (${wrong.join(', ')})` : outcome(r);
      if (why === 'MISMATCH') falseMismatch++;
      failures.set(why, (failures.get(why) ?? 0) + 1);
      console.log(
        `  ${card} #${i}: ${why}; front ${describe(fronts[i]!)}; back ${describe(backs[i]!)}`,
      );
    }
  }
  console.log(`${card}: ${cardOk}/${perCard} read`);
}

// The substitution attacks, as clean images and photographed: each must be refused.
const attacks: Array<[string, Buffer, Buffer]> = [
  [
    "another card's front (card 4, a namesake) with card 3's back",
    fixture('cedulas/card-4-front.jpg'),
    fixture('cedulas/card-3-back.jpg'),
  ],
  [
    "card 1's front with card 2's back",
    fixture('cedulas/card-1-front.jpg'),
    fixture('cedulas/card-2-back.jpg'),
  ],
  ['a selfie as the front', fixture('faces/blink-open.jpg'), fixture('cedulas/card-1-back.jpg')],
];
let attacksRefused = 0;
let attackReads = 0;
const attackCaptures = captureMatrix(4, 300);
for (const [name, front, back] of attacks) {
  const verdicts: string[] = [];
  for (const [i, c] of [null, ...attackCaptures].entries()) {
    const f = c ? await photographCard(front, c, 500 + i) : front;
    const b = c ? await photographCard(back, c, 600 + i) : back;
    const r = await read(f, b);
    attackReads++;
    if (!r.ok) attacksRefused++;
    verdicts.push(outcome(r));
  }
  console.log(`attack: ${name}: ${verdicts.join(', ')}`);
}

times.sort((a, b) => a - b);
const q = (p: number) =>
  Math.round(times[Math.min(times.length - 1, Math.floor(p * times.length))]!);
console.log(
  `\nread rate: ${readOk}/${genuine} = ${((100 * readOk) / genuine).toFixed(1)}% (target >= 95%)`,
);
console.log(`'ESTADO CIVIL' read on ${maritalRead} of the ${readOk} reads`);
console.log(`false 'not the same cédula' on genuine cards: ${falseMismatch} (target 0)`);
console.log(`failures: ${JSON.stringify(Object.fromEntries(failures))}`);
console.log(`attacks refused: ${attacksRefused}/${attackReads} (target all)`);
console.log(
  `time per read (straighten + OCR + verdict): p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, max ${q(1)} ms`,
);
console.log(
  `load average at the end: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
await reader.close();

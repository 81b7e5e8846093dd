/**
 * The light's statistic on the synthetic patient (issue 31), without the face models: the Node
 * renderer (bench/_synthetic.ts) films a colour sequence (a frame every 125 ms, all of them used),
 * the server's own colour statistic (server/identity/worker/colour.ts) is taken in the face box the
 * fixture's face ellipse gives, accumulated as the server does, and the server's judgement
 * (judgeLight) gives each round's correlation, `beyond` and verdict. Genuine patients per face,
 * lighting and tone; attacks: colours in the wrong order, late by one colour, a face on a screen
 * (flat reflection), a printed photo (flat, lit like skin). Each framing (issue 41: the face filling
 * the oval, at arm's length, far) with the face's extent (its core and rim: the shape) from the
 * fixture's face ellipse. Prints the distributions and pass counts to choose the thresholds (tune
 * on one face, report the other apart).
 * `npx tsx bench/_light-tuning.ts [--per N] [--face blink|blink-b] [--variants genuine,flat]
 *   [--framings fill,arm,far]`
 */
import sharp from 'sharp';
import { OVAL } from '../tests/identity/frames';
import {
  LIGHTINGS,
  SKIN_TONES,
  makeSyntheticPatient,
  rng,
  type SyntheticPatient,
} from '../tests/synthetic/model';
import {
  LIGHT_HOLD_MS,
  LIGHT_SETTLE_MS,
  drawLightColours,
} from '../server/identity/liveness-light';
import { addColour, emptyColourAcc, judgeLight } from '../server/identity/liveness-light-judge';
import { frameColour } from '../server/identity/worker/colour';
import { HELD_OUT, placedFaces } from './_faces';
import {
  FACE_ELLIPSES,
  FRAMINGS,
  faceScale,
  placeFace,
  syntheticCamera,
  type Framing,
} from './_synthetic';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : def;
};
const per = Number(arg('per', '1'));
/**
 * `--face blink,blink-b` (the fixture pairs) or `--face held-out` (bench/_faces.ts: 20 other people,
 * one tone each by turns, for the light only).
 */
const faceArg = arg('face', 'blink,blink-b');
const faces: Array<SyntheticPatient['face']> =
  faceArg === 'held-out'
    ? (await placedFaces(HELD_OUT)).map((f) =>
        placeFace(f.name, { data: f.data, width: 640, height: 480 }, f.face, f.head),
      )
    : (faceArg.split(',') as Array<SyntheticPatient['face']>);
const heldOut = faceArg === 'held-out';
const START = 1500;
const EV = Number(arg('ev', '0'));
const TONES = arg('tones', SKIN_TONES.map((t) => t.name).join(',')).split(',');

type Variant = 'genuine' | 'wrong-order' | 'late' | 'flat' | 'print';
const VARIANTS = arg('variants', 'genuine,wrong-order,late,flat,print').split(',') as Variant[];
const FRAMES = arg('framings', Object.keys(FRAMINGS).join(',')).split(',') as Framing[];

/** The server's own draw of a round's colours, from the patient's seeded generator. */
const drawSequence = (r: () => number) =>
  drawLightColours((min, max) => min + Math.floor(r() * (max - min + 1)));

async function session(p: SyntheticPatient, variant: Variant, seq: string[], framing: Framing) {
  const colours = seq.map((colour, k) => ({
    colour,
    from: START + k * LIGHT_HOLD_MS,
    to: START + (k + 1) * LIGHT_HOLD_MS,
  }));
  const shown =
    variant === 'wrong-order'
      ? // another order of the same colours (a rotation, none in place when possible)
        seq.map((_, k) => seq[(k + 2) % seq.length]!)
      : seq;
  const shift = variant === 'late' ? LIGHT_HOLD_MS : 0;
  const screenAt = (t: number) => {
    const at = t - p.displayLatencyMs - shift;
    const k = colours.findIndex((c) => at >= c.from && at < c.to);
    return k < 0 ? null : shown[k]!;
  };
  const cam = syntheticCamera(p, {
    reflection: variant === 'flat' || variant === 'print' ? variant : 'face',
    exposureEv: () => EV,
    framing,
  });
  let acc = colours.map(emptyColourAcc);
  const f = FACE_ELLIPSES[p.face];
  const k = OVAL.width / 160;
  // The renderer's zoom: the framing times the face's own scale (held-out photos were cropped
  // tighter or looser than blink's: faceScale).
  const z = FRAMINGS[framing] * faceScale(p.face);
  // The face ellipse's bounding box in the frame (zoomed, and centred in the oval when closer than
  // arm's length, as bench/_synthetic.ts draws it): the face's extent.
  const at =
    z > 1 ? { x: OVAL.left + OVAL.width / 2, y: OVAL.top + OVAL.height / 2 } : { x: f.cx, y: f.cy };
  const extent: [number, number, number, number] = [
    (at.x - f.rx * z - OVAL.left + p.offset[0]) / k,
    (at.y - f.ry * z - OVAL.top + p.offset[1]) / k,
    (2 * f.rx * z) / k,
    (2 * f.ry * z) / k,
  ];
  // Human's box is about 1.65 times the face (server/identity/types.ts), clipped to the frame.
  const box: [number, number, number, number] = [
    Math.max(0, extent[0] - 0.325 * extent[2]),
    Math.max(0, extent[1] - 0.2 * extent[3]),
    Math.min(160, 1.65 * extent[2]),
    Math.min(180, 1.4 * extent[3]),
  ];
  const last = colours.at(-1)!.to;
  for (let t = 0; t <= last; t += 125) {
    const jpeg = await cam.capture(t, { screenAt, blinks: [] });
    if (t < START) continue;
    const i = colours.findIndex((c) => t >= c.from && t < c.to);
    const c = colours[i];
    if (!c || t < c.from + LIGHT_SETTLE_MS) continue;
    const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
    const colour = frameColour({ data, width: info.width, height: info.height }, box, extent);
    acc = acc.map((a, j) => (j === i ? addColour(a, colour) : a));
  }
  return judgeLight({ round: 1, colours, acc });
}

const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * (s.length - 1)))]!;
};
const fmt = (xs: number[]) =>
  xs.length
    ? `min ${q(xs, 0).toFixed(2)} p10 ${q(xs, 0.1).toFixed(2)} p50 ${q(xs, 0.5).toFixed(2)} p90 ${q(xs, 0.9).toFixed(2)} max ${q(xs, 1).toFixed(2)}`
    : '-';

const rows: Array<{
  face: string;
  framing: Framing;
  lighting: string;
  tone: string;
  variant: Variant;
  corr: number;
  change: number;
  beyond: number;
  parts: number;
  shape: number;
  passed: boolean;
}> = [];
let seed = 1;
for (const [i, face] of faces.entries())
  for (const framing of FRAMES)
    for (const lighting of LIGHTINGS)
      for (const tone of heldOut
        ? [SKIN_TONES[i % SKIN_TONES.length]!]
        : SKIN_TONES.filter((t) => TONES.includes(t.name)))
        for (let n = 0; n < per; n++) {
          const p = makeSyntheticPatient(seed++, { face, lighting, tone });
          const seq = drawSequence(rng(seed * 31 + 7));
          for (const variant of VARIANTS) {
            const s = await session(p, variant, seq, framing);
            rows.push({
              face: heldOut ? 'held-out' : face,
              framing,
              lighting: lighting.name,
              tone: tone.name,
              variant,
              corr: s.correlation ?? NaN,
              change: s.change ?? NaN,
              beyond: s.beyond ?? NaN,
              parts: s.parts,
              shape: s.shape ?? NaN,
              passed: s.passed,
            });
          }
        }

// `beyond` is NaN when no part fit, `shape` when the core or rim was not seen: left out of their
// spreads, counted apart.
for (const face of heldOut ? ['held-out'] : faces)
  for (const framing of FRAMES)
    for (const variant of VARIANTS) {
      for (const lighting of [...LIGHTINGS.map((l) => l.name), 'all']) {
        const sel = rows.filter(
          (r) =>
            r.face === face &&
            r.framing === framing &&
            r.variant === variant &&
            (lighting === 'all' || r.lighting === lighting),
        );
        const fit = sel.filter((r) => !Number.isNaN(r.beyond));
        const shaped = sel.filter((r) => !Number.isNaN(r.shape));
        console.log(
          `${face.padEnd(8)} ${framing.padEnd(5)} ${variant.padEnd(12)} ${lighting.padEnd(15)} passed ${sel.filter((r) => r.passed).length}/${sel.length}  corr ${fmt(sel.map((r) => r.corr))} | change ${fmt(sel.map((r) => r.change * 100))}e-2 | beyond ${fmt(fit.map((r) => r.beyond))} (no part fit: ${sel.length - fit.length}) | shape ${fmt(shaped.map((r) => r.shape))} (unseen: ${sel.length - shaped.length})`,
        );
      }
    }

const line = (r: (typeof rows)[number]) =>
  `${r.variant} ${r.face} ${r.framing} ${r.lighting} tone ${r.tone} parts ${r.parts} corr ${r.corr.toFixed(2)} beyond ${r.beyond.toFixed(2)} shape ${r.shape.toFixed(2)} change ${(r.change * 100).toFixed(2)}e-2`;
// The attacks' rounds that passed, one line each (must be none).
for (const r of rows.filter((x) => x.variant !== 'genuine' && x.passed))
  console.log(`attack passed: ${line(r)}`);
// The genuine rounds that failed, one line each (what to look at next).
for (const r of rows.filter((x) => x.variant === 'genuine' && !x.passed))
  console.log(`failed: ${line(r)}`);

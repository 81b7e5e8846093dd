/**
 * The face's shape under the screen's colours on the liveness bench's patients (issue 41: a real
 * face's rim takes less of the screen's light than its core; a flat one the same). Patient `i` of
 * `bench/liveness-challenge.ts --faces all --seed 1` is rebuilt (its face, light, tone and framing),
 * its synthetic camera films the six colours of the challenge (liveness-light.ts) held 700 ms each
 * in three orders, no blinks; the face worker analyses the frames as one request (the margin of a
 * large face from the start), and each order's round is judged as the server judges a round
 * (judgeLight on the later two frames of each colour). Prints per order the shape (rim over core),
 * the face's change and correlation, and the largest share of the core's pixels with a channel at
 * 250 or more. Figures, not a test:
 *   npx tsx bench/face-shape-still.ts 84 85 0 36
 */
import { BACKGROUND_CORNERS } from '../contract/frame-policy';
import { addColour, emptyColourAcc, judgeLight } from '../server/identity/liveness-light-judge';
import { LIGHT_PALETTE } from '../server/identity/liveness-light';
import { CORE_PART } from '../server/identity/worker/colour';
import { decodeRgb } from '../server/identity/image';
import { analyzeFrames } from '../server/identity/worker/analyze';
import { loadHuman } from '../server/identity/worker/models';
import { IMAGE_LIMITS } from '../tests/identity/frames';
import { BLINK_FACES } from '../tests/synthetic/model';
import { runIfMain } from './_identity';
import { genuinePatients } from './liveness-challenge';
import { syntheticCamera } from './_synthetic';

const SEED = 1;
const ORDERS = [
  [0, 1, 2, 3, 4],
  [3, 5, 1, 4, 2],
  [2, 0, 4, 5, 3],
];
const HOLD_MS = 700;
const STEP_MS = 175;
const START_MS = 2000;

/** The share of the core's pixels (colour.ts CORE_PART of the extent) at the clip level in a channel. */
function coreClipped(img: { data: Buffer; width: number }, [x, y, w, h]: number[]): number {
  const [x0, x1, y0, y1] = CORE_PART;
  const at = BACKGROUND_CORNERS.saturatedFrom;
  let clipped = 0;
  let n = 0;
  for (let yy = Math.round(y! + h! * y0); yy < y! + h! * y1; yy++)
    for (let xx = Math.round(x! + w! * x0); xx < x! + w! * x1; xx++) {
      const o = (yy * img.width + xx) * 3;
      n++;
      if (img.data[o]! >= at || img.data[o + 1]! >= at || img.data[o + 2]! >= at) clipped++;
    }
  return n ? clipped / n : 0;
}

async function main() {
  const picks = process.argv.slice(2).map(Number);
  const human = await loadHuman();
  const patients = genuinePatients(Math.max(0, ...picks) + 1, SEED, BLINK_FACES);
  for (const i of picks) {
    const p = patients[i]!;
    const rounds: string[] = [];
    for (const order of ORDERS) {
      const camera = syntheticCamera(p, { framing: p.framing ?? 'arm' });
      const seq = order.map((k) => LIGHT_PALETTE[k]!);
      const colourAt = (t: number) => seq[Math.min(seq.length - 1, Math.floor(t / HOLD_MS))]!;
      const frames: Buffer[] = [];
      for (let t = 0; t < HOLD_MS * seq.length; t += STEP_MS) {
        frames.push(
          await camera.capture(START_MS + t, {
            screenAt: (s) => (s >= START_MS ? colourAt(s - START_MS) : null),
            blinks: [],
          }),
        );
      }
      const perColour = HOLD_MS / STEP_MS;
      const { frames: out } = await analyzeFrames(human, frames, IMAGE_LIMITS, {
        describeFirst: false,
        unchangedBelow: 0,
        colourExtent: [0, 0, 160, 180],
      });
      const acc = seq.map(() => emptyColourAcc());
      let clipped = 0;
      for (const [k, f] of out.entries()) {
        const c = Math.floor(k / perColour);
        if (k % perColour >= perColour / 2) acc[c] = addColour(acc[c]!, f.colour);
        const extent = f.faces[0]?.extent;
        if (extent) {
          const img = await decodeRgb(frames[k]!, IMAGE_LIMITS, 640);
          clipped = Math.max(clipped, coreClipped(img, extent));
        }
      }
      const j = judgeLight({ round: 1, colours: seq.map((colour) => ({ colour })), acc });
      rounds.push(
        `shape ${j.shape ?? '-'} change ${j.change} r ${j.correlation} clipped ${clipped.toFixed(2)}`,
      );
    }
    console.log(
      `${i} ${p.face} ${p.framing} ${p.lighting.name} ${p.tone.name}: ${rounds.join(' | ')}`,
    );
  }
}

runIfMain(import.meta.url, main);

/**
 * The face detector on the liveness bench's patients, one frame at a time (issue 41: faces found
 * and not found by framing). Patient `i` of `bench/liveness-challenge.ts --faces all --seed 1` is
 * rebuilt (its face, light, tone and framing), its synthetic camera films a still scene (open eyes,
 * or closed with `--closed`; no colours) and every frame 250 ms apart over 3 s is analysed alone,
 * twice: as the engine analyses a single image (a fresh detection, and the grey margin of detect.ts
 * detectTooClose when it finds none) and as the first frame of a selfie request whose session's face
 * was large (detect.ts FACE_MARGIN from the start). Prints, per frame, the single image's box width
 * over the frame's and the face's score, the gates that fail, or '-' for no face; then, after '|',
 * the margin's face (its mesh's) width in pixels and eye ratio. Figures, not a test:
 *   npx tsx bench/face-detect-still.ts 24 25 32 33 [--closed]
 */
import { loadIdentityConfig } from '../server/identity/config';
import { createIdentityEngine } from '../server/identity/engine';
import { checkGates } from '../server/identity/gates';
import { analyzeFrames } from '../server/identity/worker/analyze';
import { loadHuman } from '../server/identity/worker/models';
import { BLINK_FACES } from '../tests/synthetic/model';
import { runIfMain } from './_identity';
import { genuinePatients } from './liveness-challenge';
import { syntheticCamera } from './_synthetic';
import { IMAGE_LIMITS } from '../tests/identity/frames';

const SEED = 1;

async function main() {
  const closed = process.argv.includes('--closed');
  const picks = process.argv
    .slice(2)
    .filter((a) => a !== '--closed')
    .map(Number);
  const human = await loadHuman();
  const limits = IMAGE_LIMITS;
  const engine = await createIdentityEngine(loadIdentityConfig({ IDENTITY_POOL_SIZE: '1' }), {
    ocr: false,
  });
  const patients = genuinePatients(Math.max(0, ...picks) + 1, SEED, BLINK_FACES);
  try {
    for (const i of picks) {
      const p = patients[i]!;
      const framing = p.framing ?? 'arm';
      const camera = syntheticCamera(p, { framing });
      const out: string[] = [];
      for (let t = 0; t <= 3000; t += 250) {
        const jpeg = await camera.capture(t, {
          screenAt: () => null,
          blinks: closed ? [[0, 10_000]] : [],
        });
        const frame = await engine.analyze(jpeg, { embedding: false });
        const face = frame.faces[0];
        const gates = checkGates(frame, engine.config);
        const margin = await analyzeFrames(human, [jpeg], limits, {
          describeFirst: false,
          unchangedBelow: 0,
          colourExtent: [0, 0, frame.width, frame.height],
        });
        const m = margin.frames[0]!.faces[0];
        out.push(
          (face
            ? `${(face.box[2] / frame.width).toFixed(2)}/${face.score.toFixed(2)}${gates.ok ? '' : `:${gates.failed.join('+')}`}`
            : '-') + (m?.extent ? `|${Math.round(m.extent[2])}/${m.ear.mean.toFixed(2)}` : '|-'),
        );
      }
      console.log(i, framing, p.face, p.lighting.name, out.join(' '));
    }
  } finally {
    await engine.close();
  }
}

runIfMain(import.meta.url, main);

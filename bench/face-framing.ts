/**
 * The selfie's framing gates on real faces (issue 41, server/identity/gates.ts): each fixture face
 * (tests/fixtures/faces: the two blink photos and person-01..21) cropped around the face to the
 * selfie's frame (the oval's region at the frame policy's 160x180, JPEG 0.6), the face k of the
 * frame's width for k from 0.35 to 1.1 (k measured on the face's mesh in the whole photo; the edges
 * beyond the photo copied), and the e2e synthetic camera's usual framing of the blink photos (OVAL).
 * Prints, per face and k, Human's box width and the face's own extent (its mesh) over the frame's
 * width, and the gates that fail. Figures, not a test:
 *   npx tsx bench/face-framing.ts
 */
import path from 'node:path';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { loadIdentityConfig } from '../server/identity/config';
import { createIdentityEngine } from '../server/identity/engine';
import { checkGates } from '../server/identity/gates';
import { runIfMain } from './_identity';

const W = 160;
const H = 180;
const FILLS = [0.35, 0.5, 0.6, 0.75, 0.9, 1.0, 1.1, 1.2, 1.35];
const faces = path.resolve('tests', 'fixtures', 'faces');
const NAMES = [
  'blink-open',
  'blink-b-open',
  ...Array.from({ length: 21 }, (_, i) => `person-${String(i + 1).padStart(2, '0')}`),
];
/** The 320x360 oval's region of a 640x480 capture (tests/identity/frames.ts OVAL). */
const OVAL = { left: Math.round((640 - (480 * 320) / 360) / 2), top: 0, width: 427, height: 480 };

async function main() {
  const engine = await createIdentityEngine(loadIdentityConfig({ IDENTITY_POOL_SIZE: '1' }), {
    ocr: false,
  });
  const show = async (jpeg: Buffer) => {
    const frame = await engine.analyze(jpeg, { embedding: false });
    const face = frame.faces[0];
    if (!face) return '-';
    const gates = checkGates(frame, engine.config);
    const e = face.extent;
    return [
      `box ${(face.box[2] / W).toFixed(2)}`,
      e ? `face ${(e[2] / W).toFixed(2)} [${e.map((v) => Math.round(v)).join(',')}]` : 'face ?',
      gates.ok ? 'ok' : gates.failed.join('+'),
      frame.faces.length > 1 ? `(${frame.faces.length} faces)` : '',
    ]
      .filter(Boolean)
      .join(' ');
  };
  try {
    for (const name of NAMES) {
      const photo = readFileSync(path.join(faces, `${name}.jpg`));
      const meta = await sharp(photo).metadata();
      const whole = await engine.analyze(photo, { embedding: false });
      const e = whole.faces.length === 1 ? whole.faces[0]!.extent : undefined;
      if (!e) {
        console.log(`${name}: ${whole.faces.length} faces in the photo`);
        continue;
      }
      const cx = e[0] + e[2] / 2;
      const cy = e[1] + e[3] / 2;
      const pad = Math.max(meta.width!, meta.height!);
      const padded = await sharp(photo)
        .extend({ top: pad, bottom: pad, left: pad, right: pad, extendWith: 'copy' })
        .toBuffer();
      console.log(`${name} (${meta.width}x${meta.height})`);
      for (const k of FILLS) {
        const cw = e[2] / k;
        const ch = (cw * H) / W;
        const crop = await sharp(padded)
          .extract({
            left: Math.round(cx - cw / 2) + pad,
            top: Math.round(cy - ch / 2) + pad,
            width: Math.round(cw),
            height: Math.round(ch),
          })
          .resize(W, H)
          .jpeg({ quality: 60 })
          .toBuffer();
        console.log(`  k ${k.toFixed(2)}: ${await show(crop)}`);
      }
      if (name.startsWith('blink')) {
        const oval = await sharp(photo).extract(OVAL).resize(W, H).jpeg({ quality: 60 }).toBuffer();
        console.log(`  OVAL:   ${await show(oval)}`);
      }
    }
  } finally {
    await engine.close();
  }
}

runIfMain(import.meta.url, main);

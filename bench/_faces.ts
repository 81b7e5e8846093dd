/**
 * Faces the light's thresholds were not tuned on (issue 41 item 6), for bench/_light-tuning.ts: the
 * 21 single-face crops of tests/fixtures/faces/person-XX.jpg (MIT, @vladmandic/face-api's demo
 * photos: tests/fixtures/README.md), less person-18 (the held-out blink pair 'blink-b' is made from
 * it), each placed as the fixture pair 'blink' is: its face (the mesh's extent, found once with
 * Human) scaled to the same width and centred where blink's face is, on a 640x480 frame whose edges
 * are the photo's own copied outward. No closed-eye picture: the light's statistic needs none.
 * Not a bench itself (the runner skips files starting with '_').
 */
import path from 'node:path';
import sharp from 'sharp';
import { meshExtent } from '../server/identity/worker/detect';
import { loadHuman } from '../server/identity/worker/models';
import { fixtures } from '../tests/identity/frames';

export type PlacedFace = {
  name: string;
  /** 640x480 RGB, 0..1 per channel. */
  data: Float32Array;
  /** The face's and the head's ellipses on that frame (as bench/_synthetic.ts FACE_ELLIPSES). */
  face: { cx: number; cy: number; rx: number; ry: number };
  head: { cx: number; cy: number; rx: number; ry: number };
};

/** Where blink's face is on its frame (bench/_synthetic.ts FACE_ELLIPSES.blink), and its head around it. */
const AT = { cx: 322, cy: 308, rx: 108 };
const HEAD = { rx: 185 / 108, ry: 205 / 132, up: 68 / 132 };

export const HELD_OUT = Array.from(
  { length: 21 },
  (_, i) => `person-${String(i + 1).padStart(2, '0')}`,
).filter((n) => n !== 'person-18');

export async function placedFaces(names = HELD_OUT): Promise<PlacedFace[]> {
  const human = await loadHuman();
  const out: PlacedFace[] = [];
  for (const name of names) {
    const file = path.join(fixtures, 'faces', `${name}.jpg`);
    const { data, info } = await sharp(file)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const t = human.tf.tensor3d(new Uint8Array(data), [info.height, info.width, 3], 'int32');
    const b = human.tf.expandDims(t, 0);
    const r = await human.detect(b);
    t.dispose();
    b.dispose();
    const e = r.face.length === 1 ? meshExtent(r.face[0]!.mesh) : undefined;
    if (!e) continue;
    const scale = (2 * AT.rx) / e[2];
    const w = Math.round(info.width * scale);
    const h = Math.round(info.height * scale);
    const cx = (e[0] + e[2] / 2) * scale;
    const cy = (e[1] + e[3] / 2) * scale;
    const pad = 640;
    // Two passes: sharp extracts before it extends within one pipeline.
    const padded = await sharp(file)
      .removeAlpha()
      .resize(w, h)
      .extend({ top: pad, bottom: pad, left: pad, right: pad, extendWith: 'copy' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const placed = await sharp(padded.data, { raw: padded.info })
      .extract({
        left: Math.round(pad + cx - AT.cx),
        top: Math.round(pad + cy - AT.cy),
        width: 640,
        height: 480,
      })
      .raw()
      .toBuffer();
    const f = new Float32Array(placed.length);
    for (let i = 0; i < placed.length; i++) f[i] = placed[i]! / 255;
    const ry = (AT.rx * e[3]) / e[2];
    out.push({
      name,
      data: f,
      face: { cx: AT.cx, cy: AT.cy, rx: AT.rx, ry },
      head: { cx: AT.cx, cy: AT.cy - HEAD.up * ry, rx: HEAD.rx * AT.rx, ry: HEAD.ry * ry },
    });
  }
  return out;
}

/**
 * Camera-like frames from the committed blink fixtures: each frame gets a pixel or two of jitter and
 * sensor noise, then JPEG at the browser's quality (0.7), so no two frames are duplicates unless a
 * test sends the same bytes (or a re-encode) on purpose.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { rng } from '../fixtures/cedula';

export const fixtures = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'fixtures',
);
export const fixture = (...p: string[]) => readFileSync(path.join(fixtures, ...p));

const decoded = new Map<string, Promise<{ data: Buffer; width: number; height: number }>>();
function raw(name: string) {
  let p = decoded.get(name);
  if (!p) {
    p = sharp(fixture('faces', name))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
      .then(({ data, info }) => ({ data, width: info.width, height: info.height }));
    decoded.set(name, p);
  }
  return p;
}

export type FrameOptions = {
  seed: number;
  noise?: number;
  brightness?: number;
  quality?: number;
  still?: boolean;
};

/**
 * A hand-held capture: a small random rotation (up to 1.5 degrees), zoom (up to 2%) and shift (up to
 * 3 px), sensor noise, JPEG. `still: true` keeps the geometry (a camera on a stand).
 */
export async function cameraFrame(name: string, o: FrameOptions): Promise<Buffer> {
  const { data, width, height } = await raw(name);
  const r = rng(o.seed * 7919 + 13);
  const u = () => r() * 2 - 1;
  const angle = o.still ? 0 : (u() * 1.5 * Math.PI) / 180;
  const scale = o.still ? 1 : 1 + u() * 0.02;
  const tx = o.still ? 0 : u() * 3;
  const ty = o.still ? 0 : u() * 3;
  const cos = Math.cos(angle) * scale;
  const sin = Math.sin(angle) * scale;
  // Inverse mapping around the centre, bilinear sampling.
  const cx = width / 2;
  const cy = height / 2;
  const det = cos * cos + sin * sin;
  const noise = o.noise ?? 4;
  const b = o.brightness ?? 1;
  const out = Buffer.alloc(data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const X = x - cx - tx;
      const Y = y - cy - ty;
      const sx = Math.min(width - 1.001, Math.max(0, (cos * X + sin * Y) / det + cx));
      const sy = Math.min(height - 1.001, Math.max(0, (-sin * X + cos * Y) / det + cy));
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      for (let c = 0; c < 3; c++) {
        const p = (yy: number, xx: number) => data[(yy * width + xx) * 3 + c]!;
        const v0 = p(y0, x0) * (1 - fx) + p(y0, x0 + 1) * fx;
        const v1 = p(y0 + 1, x0) * (1 - fx) + p(y0 + 1, x0 + 1) * fx;
        const v = (v0 * (1 - fy) + v1 * fy) * b + (r() + r() + r() - 1.5) * 2 * noise;
        out[(y * width + x) * 3 + c] = v < 0 ? 0 : v > 255 ? 255 : v;
      }
    }
  }
  return sharp(out, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: o.quality ?? 70 })
    .toBuffer();
}

/** open x3, then (closed, open, open) per blink. */
export function blinkPlan(blinks: number): Array<'open' | 'closed'> {
  const plan: Array<'open' | 'closed'> = ['open', 'open', 'open'];
  for (let i = 0; i < blinks; i++) plan.push('closed', 'open', 'open');
  return plan;
}

export async function blinkSequence(blinks: number, seed = 1): Promise<Buffer[]> {
  return Promise.all(
    blinkPlan(blinks).map((k, i) =>
      cameraFrame(k === 'open' ? 'blink-open.jpg' : 'blink-closed.jpg', { seed: seed * 1000 + i }),
    ),
  );
}

/** A multipart/form-data body for app.inject: text fields and files. */
export type Part = { name: string; value: string | Buffer; filename?: string; type?: string };
export function multipart(parts: Part[]) {
  const boundary = '----identity' + Math.random().toString(16).slice(2);
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disp = `Content-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    const type = p.filename ? `\r\nContent-Type: ${p.type ?? 'image/jpeg'}` : '';
    chunks.push(
      Buffer.from(`--${boundary}\r\n${disp}${type}\r\n\r\n`),
      Buffer.from(p.value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

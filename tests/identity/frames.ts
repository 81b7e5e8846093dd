/**
 * Camera-like frames from the committed blink fixtures: each frame gets a pixel or two of jitter and
 * sensor noise, then JPEG at the browser's quality (0.7), so no two frames are duplicates unless a
 * test sends the same bytes (or a re-encode) on purpose.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { nameReadRight, rng } from '../fixtures/cedula';

export const fixtures = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'fixtures',
);
export const fixture = (...p: string[]) => readFileSync(path.join(fixtures, ...p));

/** The image limits the face worker's own tests and benches decode with (decodeRgb, analyzeFrames). */
export const IMAGE_LIMITS = { maxUploadBytes: 8 << 20, maxPixels: 40_000_000, minImageSide: 16 };

/** The committed cédulas' manifest: each card's expected fields and its printed names. */
export const cardManifest = JSON.parse(fixture('cedulas', 'manifest.json').toString()) as Record<
  string,
  { expected: Record<string, string>; printedName: string }
>;

/**
 * What the engine must answer for a committed card, given what it answered: the manifest's fields,
 * the names word by word as the card prints them or as the MRZ writes them (the OCR reads an accent
 * on a capital in some photos and not in others); any other spelling fails the comparison.
 */
export function cardIdData(name: string, got?: { FullName?: string } | null) {
  const { expected, printedName } = cardManifest[name]!;
  return got?.FullName && nameReadRight(got.FullName, printedName)
    ? { ...expected, FullName: got.FullName }
    : expected;
}

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

/** The video's region under the 320x360 selfie oval (object-fit: cover on a 640x480 camera). */
export const OVAL = {
  left: (640 - (480 * 320) / 360) / 2,
  top: 0,
  width: (480 * 320) / 360,
  height: 480,
};

export type OvalFrameOptions = {
  seed: number;
  /** Output width (the frame policy's maxWidth); the height follows the oval's 320:360. */
  width: number;
  /** JPEG quality 0-100. */
  quality: number;
  /** 0 open ... 1 closed: the two blink fixtures blended (a lid half way is 0.5). */
  closed?: number;
  noise?: number;
  brightness?: number;
  /** Where the patient's head is (source pixels), on top of the per-frame jitter. */
  offset?: [number, number];
  /** No per-frame jitter (a photo on a stand). */
  still?: boolean;
  /**
   * The same noise on the three channels (a grey-level standard deviation of `noise`), as a phone's
   * sensor noise mostly is after its processing; by default each channel has its own (grey about
   * 0.67 x `noise`).
   */
  greyNoise?: boolean;
  /** The camera's region drawn (640x480 capture pixels); the oval's by default, the whole frame for the kiosk. */
  region?: { left: number; top: number; width: number; height: number };
};

/**
 * A camera frame as the capture actor sends it: the oval's region of a 640x480 capture, scaled to
 * `width`, with hand-held jitter (up to 1 degree, 1.5% zoom, 2 px), sensor noise and JPEG. Computed at
 * the output size, so a bench can make thousands.
 */
export async function ovalFrame(o: OvalFrameOptions): Promise<Buffer> {
  const open = await raw('blink-open.jpg');
  const shut = await raw('blink-closed.jpg');
  const { width: sw, height: sh } = open;
  const region = o.region ?? OVAL;
  const W = o.width;
  const H = Math.round((W * region.height) / region.width);
  const k = region.width / W;
  const r = rng(o.seed * 7919 + 29);
  const u = () => r() * 2 - 1;
  const angle = o.still ? 0 : (u() * 1 * Math.PI) / 180;
  const zoom = o.still ? 1 : 1 + u() * 0.015;
  const tx = (o.still ? 0 : u() * 2) + (o.offset?.[0] ?? 0);
  const ty = (o.still ? 0 : u() * 2) + (o.offset?.[1] ?? 0);
  const cos = Math.cos(angle) / zoom;
  const sin = Math.sin(angle) / zoom;
  const cx = sw / 2;
  const cy = sh / 2;
  const c1 = Math.max(0, Math.min(1, o.closed ?? 0));
  const c0 = 1 - c1;
  const noise = o.noise ?? 3;
  const b = o.brightness ?? 1;
  const out = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const X = region.left + (x + 0.5) * k - cx - tx;
      const Y = region.top + (y + 0.5) * k - cy - ty;
      const sx = Math.min(sw - 1.001, Math.max(0, cos * X + sin * Y + cx));
      const sy = Math.min(sh - 1.001, Math.max(0, -sin * X + cos * Y + cy));
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      const grain = o.greyNoise ? (r() + r() + r() - 1.5) * 2 * noise : 0;
      const i00 = (y0 * sw + x0) * 3;
      const i10 = i00 + 3;
      const i01 = i00 + sw * 3;
      const i11 = i01 + 3;
      const w00 = (1 - fx) * (1 - fy);
      const w10 = fx * (1 - fy);
      const w01 = (1 - fx) * fy;
      const w11 = fx * fy;
      for (let c = 0; c < 3; c++) {
        const a =
          open.data[i00 + c]! * w00 +
          open.data[i10 + c]! * w10 +
          open.data[i01 + c]! * w01 +
          open.data[i11 + c]! * w11;
        const z = c1
          ? shut.data[i00 + c]! * w00 +
            shut.data[i10 + c]! * w10 +
            shut.data[i01 + c]! * w01 +
            shut.data[i11 + c]! * w11
          : 0;
        const v =
          (a * c0 + z * c1) * b + (o.greyNoise ? grain : (r() + r() + r() - 1.5) * 2 * noise);
        out[(y * W + x) * 3 + c] = v < 0 ? 0 : v > 255 ? 255 : v;
      }
    }
  }
  return sharp(out, { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: o.quality })
    .toBuffer();
}

/** A 4032x3024 phone photo of a card: the card about 70% of the width, turned a little, noisy. */
export async function phonePhoto(card: Buffer, seed: number, angle: number): Promise<Buffer> {
  const W = 4032;
  const H = 3024;
  const cardW = Math.round(W * 0.7);
  const turned = await sharp(card)
    .resize({ width: cardW, kernel: 'lanczos3' })
    .rotate(angle, { background: '#6b5b4b' })
    .toBuffer({ resolveWithObject: true });
  const left = Math.round((W - turned.info.width) / 2);
  const top = Math.round((H - turned.info.height) / 2);
  const { data, info } = await sharp({
    create: { width: W, height: H, channels: 3, background: '#6b5b4b' },
  })
    .composite([{ input: turned.data, left, top }])
    .raw()
    .toBuffer({ resolveWithObject: true });
  const r = rng(seed);
  for (let i = 0; i < data.length; i += 7)
    data[i] = Math.max(0, Math.min(255, data[i]! + (r() - 0.5) * 24));
  // The composite's raw output may carry an alpha channel: read it back with its own channel count.
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

import sharp, { type Metadata } from 'sharp';
import { IdentityError, identityMessages } from './errors';

export type ImageLimits = { maxUploadBytes: number; maxPixels: number; minImageSide: number };
type ImageKind = 'jpeg' | 'png';

/** The type by magic bytes, never by the name or the declared content type. */
export function sniffImage(bytes: Uint8Array): ImageKind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'png';
  return null;
}

/** Cheap checks before any decoding: type and size. Throws IdentityError (415, 413). */
export function checkUpload(
  bytes: Uint8Array,
  limits: Pick<ImageLimits, 'maxUploadBytes'>,
): ImageKind {
  if (bytes.length > limits.maxUploadBytes) {
    const mb = Math.floor(limits.maxUploadBytes / (1024 * 1024)) || 1;
    throw new IdentityError('too_large', identityMessages.tooLarge.replace('{mb}', String(mb)));
  }
  const kind = sniffImage(bytes);
  if (!kind) throw new IdentityError('unsupported_type', identityMessages.unsupportedType);
  return kind;
}

export type RgbImage = { data: Buffer; width: number; height: number };

/**
 * Decodes to RGB with the EXIF orientation applied, refusing images over the pixel limit
 * (a decompression bomb) and undecodable ones. Downscales so the longer side is at most maxSide.
 */
export async function decodeRgb(
  bytes: Uint8Array,
  limits: ImageLimits,
  maxSide?: number,
): Promise<RgbImage> {
  checkUpload(bytes, limits);
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new IdentityError('undecodable', identityMessages.undecodable);
  }
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  if (!w || !h) throw new IdentityError('undecodable', identityMessages.undecodable);
  if (w * h > limits.maxPixels)
    throw new IdentityError('too_large', identityMessages.tooManyPixels);
  if (Math.min(w, h) < limits.minImageSide)
    throw new IdentityError('too_small', identityMessages.tooSmall);
  try {
    let pipeline = sharp(bytes, { limitInputPixels: limits.maxPixels, failOn: 'error' }).rotate();
    if (maxSide)
      pipeline = pipeline.resize({
        width: maxSide,
        height: maxSide,
        fit: 'inside',
        withoutEnlargement: true,
      });
    const { data, info } = await pipeline
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } catch {
    throw new IdentityError('undecodable', identityMessages.undecodable);
  }
}

/** Mean luma (0-255, Rec. 601) of a region of an RGB image. */
export function meanLuma(img: RgbImage, box?: [number, number, number, number]): number {
  const [x0, y0, bw, bh] = box ?? [0, 0, img.width, img.height];
  const xs = Math.max(0, Math.floor(x0));
  const ys = Math.max(0, Math.floor(y0));
  const xe = Math.min(img.width, Math.ceil(x0 + bw));
  const ye = Math.min(img.height, Math.ceil(y0 + bh));
  const step = Math.max(1, Math.floor(Math.sqrt(((xe - xs) * (ye - ys)) / 20_000)));
  let sum = 0;
  let n = 0;
  for (let y = ys; y < ye; y += step) {
    for (let x = xs; x < xe; x += step) {
      const i = (y * img.width + x) * 3;
      sum += 0.299 * img.data[i]! + 0.587 * img.data[i + 1]! + 0.114 * img.data[i + 2]!;
      n++;
    }
  }
  return n ? sum / n : 0;
}

export const FINGERPRINT_W = 48;
export const FINGERPRINT_H = 36;

/**
 * `src` (w x h, one value a pixel) resampled to W x H by area: each output pixel is the mean of the
 * source area it covers, fractional edges weighted (a frame smaller than W x H is stretched). Rows
 * first, then columns.
 */
function areaResize(src: Float32Array, w: number, h: number, W: number, H: number): Float32Array {
  /** For each output index, the source indices it covers and their weights (summing to 1). */
  const spans = (n: number, N: number) =>
    Array.from({ length: N }, (_, o) => {
      const a = (o * n) / N;
      const b = ((o + 1) * n) / N;
      const idx: number[] = [];
      const wt: number[] = [];
      for (let i = Math.floor(a); i < Math.min(n, Math.ceil(b)); i++) {
        idx.push(i);
        wt.push((Math.min(b, i + 1) - Math.max(a, i)) / (b - a));
      }
      return { idx, wt };
    });
  const xs = spans(w, W);
  const ys = spans(h, H);
  const rows = new Float32Array(h * W);
  for (let y = 0; y < h; y++)
    for (let o = 0; o < W; o++) {
      const { idx, wt } = xs[o]!;
      let v = 0;
      for (let k = 0; k < idx.length; k++) v += src[y * w + idx[k]!]! * wt[k]!;
      rows[y * W + o] = v;
    }
  const out = new Float32Array(H * W);
  for (let o = 0; o < H; o++) {
    const { idx, wt } = ys[o]!;
    for (let x = 0; x < W; x++) {
      let v = 0;
      for (let k = 0; k < idx.length; k++) v += rows[idx[k]! * W + x]! * wt[k]!;
      out[o * W + x] = v;
    }
  }
  return out;
}

/**
 * A frame's perceptual fingerprint: a 48x36 grey thumbnail (for near-duplicate distance) and a
 * 64-bit difference hash of a 9x8 one (for an indexed search over earlier sessions), both area
 * averages of the frame's luma (Rec. 601). Re-encoding, rescaling or recompressing a frame keeps
 * both nearly unchanged; a new camera capture does not. Plain arithmetic on the decoded pixels:
 * 0.36 ms of CPU for a 160x180 frame, where two sharp cubic resizes cost 3.1 ms (most of it
 * setting up each pipeline), on every liveness frame. Against those, at 160x180: a re-encode at
 * quality 40 measures 0.68-0.74 (0.63-0.70), a 144 px rescale 0.56-0.63 (0.50-0.54), two fresh
 * captures of one still image 3.48 at least (3.39). A frame fingerprinted the former way measures
 * 1.38-1.50 from its new fingerprint: frames stored before the change are not found as replays
 * (docs/production.md, upgrading).
 */
export function fingerprint(img: RgbImage): { thumb: Buffer; dhash: bigint } {
  const { data, width: w, height: h } = img;
  const grey = new Float32Array(w * h);
  for (let i = 0, j = 0; j < grey.length; i += 3, j++)
    grey[j] = 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
  const thumb = Buffer.from(
    areaResize(grey, w, h, FINGERPRINT_W, FINGERPRINT_H).map((v) => Math.round(v)),
  );
  const small = areaResize(grey, w, h, 9, 8);
  let dhash = 0n;
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      dhash = (dhash << 1n) | (small[y * 9 + x]! > small[y * 9 + x + 1]! ? 1n : 0n);
    }
  }
  return { thumb, dhash };
}

/**
 * Distance of two fingerprints: mean absolute difference after normalising each to zero mean and a
 * standard deviation of 50 grey levels, so a brightness or contrast change does not hide a replay.
 */
export function fingerprintDistance(a: Uint8Array, b: Uint8Array): number {
  return fingerprintDistanceFrom(a)(b);
}

/** A thumbnail with its moments, for comparing it with several probes (computed once). */
export type PreparedFingerprint = { data: Uint8Array; mean: number; scale: number };

export function prepareFingerprint(v: Uint8Array): PreparedFingerprint {
  return { data: v, ...moments(v) };
}

/**
 * fingerprintDistance from one probe to many candidates: the probe is normalised once, nothing is
 * allocated per candidate (a prepared one's moments are not computed again), and a candidate is
 * given up (Infinity) as soon as its distance must exceed `max` (a new capture measures 1.5+
 * against a duplicate threshold of 0.7: a few dozen pixels decide).
 */
export function fingerprintDistanceFrom(a: Uint8Array) {
  const pa = moments(a);
  const n = a.length;
  const na = new Float64Array(n);
  for (let i = 0; i < n; i++) na[i] = (a[i]! - pa.mean) * pa.scale;
  return (candidate: Uint8Array | PreparedFingerprint, max = Number.POSITIVE_INFINITY): number => {
    const pb = candidate instanceof Uint8Array ? prepareFingerprint(candidate) : candidate;
    const b = pb.data;
    if (n !== b.length || n === 0) return Number.POSITIVE_INFINITY;
    const { mean, scale } = pb;
    const limit = max * n;
    let sum = 0;
    for (let i = 0; i < n; i++) {
      sum += Math.abs(na[i]! - (b[i]! - mean) * scale);
      if (sum > limit) return Number.POSITIVE_INFINITY;
    }
    return sum / n;
  };
}

/** Mean, and the factor that brings the standard deviation to 50 grey levels. */
function moments(v: Uint8Array): { mean: number; scale: number } {
  const n = v.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += v[i]!;
  const mean = sum / n;
  let varSum = 0;
  for (let i = 0; i < n; i++) varSum += (v[i]! - mean) ** 2;
  return { mean, scale: 50 / Math.max(1, Math.sqrt(varSum / n)) };
}

/** Hamming distance of two 64-bit dHashes (in SQL: `bit_count((a # b)::bit(64))`, PostgreSQL 14+). */
export function hamming64(a: bigint, b: bigint): number {
  const x = BigInt.asUintN(64, a ^ b);
  return popcount32(Number(x >> 32n)) + popcount32(Number(x & 0xffff_ffffn));
}

function popcount32(v: number): number {
  v -= (v >>> 1) & 0x5555_5555;
  v = (v & 0x3333_3333) + ((v >>> 2) & 0x3333_3333);
  return (((v + (v >>> 4)) & 0x0f0f_0f0f) * 0x0101_0101) >>> 24;
}

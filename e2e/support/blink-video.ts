/**
 * A fake-camera video for Chromium made at test time from the engine's blink fixtures
 * (tests/fixtures/faces/blink-open.jpg, blink-closed.jpg): 10 fps, eyes open with a closed phase of
 * 200 ms every 1.5-2.5 s.
 *
 * The server refuses a frame that is a near-duplicate of any earlier frame of the session, or of a
 * counted frame of another session in the last 72 h (replays). A real face never holds one pose, so
 * neither does this one: the head circles slowly, the camera zooms slowly in, and
 * each `seed` tilts the head by its own angle. Every frame of a video then differs from every other
 * by several times the server's duplicate distance, and two seeds never share a frame: give every
 * test that passes a liveness challenge its own seed. `makeBlinkVideo` checks its own video with the
 * server's fingerprint and throws if two frames come too close, so a weak video fails loudly here,
 * not as a mysterious timeout at the selfie. Raw RGB frames are piped to Debian's ffmpeg (.y4m).
 *
 * Seeds in use (one e2e run shares one database, so seeds must not repeat across files):
 * the KYC specs 1-4 and 9-10, the registration specs 11, 12 and 5, the recording attack 13 (this face), and
 * e2e/face-login.spec.ts 5-8 on its own face (`blink-b`), e2e/my-data-walk.spec.ts 1-2 on its own
 * (`blink-h`): a seed's video differs per face.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import {
  fingerprint,
  fingerprintDistanceFrom,
  prepareFingerprint,
} from '../../server/identity/image';

const faces = path.resolve('tests', 'fixtures', 'faces');
const FPS = 10;
/** Two frames of one video must differ by at least this (the server's duplicate distance is 0.7). */
export const MIN_FRAME_DISTANCE = 1.5;

/** Deterministic pseudo-random numbers (the same video for a seed, every run). */
function rng(seed: number) {
  let s = (seed * 2654435761) >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export type BlinkVideoOptions = {
  /** Each seed is a different video (its own head tilt and path). Small integers, 1-14. */
  seed: number;
  /** Longer than the journey that plays it: Chromium loops the file, and a loop repeats frames. */
  seconds?: number; /**
   * The blink pair `tests/fixtures/faces/<face>-open.jpg`, `-closed.jpg`: `blink` (default) or
   * `blink-b`, another person's face that only e2e/face-login.spec.ts plays.
   */
  face?: string;
  /**
   * Pixels the face is raised in the picture (default 0: the photo's own framing). blink-h sits low
   * in its photo: at its own framing the chin is a few pixels past the bottom of the oval's region
   * on most frames, a face the gates call cut ('too_close'), and the kiosk met few blinks on frames
   * that pass them. A patient told 'Alejá un poco el celular' centres the face; this video does.
   */
  raise?: number;
};

/** The head tilt of a seed, in degrees: 1.5 degrees apart, alternating sides (-10.5..+10.5). */
function tiltOf(seed: number): number {
  const step = Math.ceil(seed / 2) * 1.5;
  return seed % 2 ? step : -step;
}

export async function makeBlinkVideo(dir: string, options: BlinkVideoOptions): Promise<string> {
  const { seed, seconds = 30, face = 'blink', raise = 0 } = options;
  if (!Number.isInteger(seed) || seed < 1 || seed > 14) throw new Error(`seed 1-14: ${seed}`);
  const out = path.join(dir, `${face}-${seed}-${seconds}s${raise ? `-up${raise}` : ''}.y4m`);
  if (existsSync(out)) return out;

  const sources = {
    open: path.join(faces, `${face}-open.jpg`),
    closed: path.join(faces, `${face}-closed.jpg`),
  };
  const { width = 640, height = 480 } = await sharp(sources.open).metadata();
  const tilt = async (file: string) => {
    const turned = await sharp(file).rotate(tiltOf(seed), { background: '#808080' }).toBuffer();
    if (!raise) return turned;
    // The photo moved up by `raise` (its bottom rows repeated below).
    const meta = await sharp(turned).metadata();
    const extended = await sharp(turned).extend({ bottom: raise, extendWith: 'copy' }).toBuffer();
    return sharp(extended)
      .extract({ left: 0, top: raise, width: meta.width!, height: meta.height! })
      .toBuffer();
  };
  // Decoded once: every frame resizes the raw pixels (decoding the JPEG again per frame cost most
  // of a video's time).
  const raw = async (file: string) => {
    const { data, info } = await sharp(await tilt(file))
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, raw: { width: info.width, height: info.height, channels: info.channels } };
  };
  const tilted = { open: await raw(sources.open), closed: await raw(sources.closed) };
  const r = rng(seed);
  const total = seconds * FPS;
  const frames: Buffer[] = [];
  const thumbs: Buffer[] = [];
  let nextBlink = 20;
  // The head circles (about 3.5 px a frame, one turn in 2.4 s, from the seed's own starting angle):
  // frames a moment apart are a few pixels apart, and when a position comes round again the zoom
  // below has moved on.
  const phase = r() * 2 * Math.PI;
  const direction = seed % 3 ? 1 : -1;
  for (let i = 0; i < total; i++) {
    const isClosed = i >= nextBlink && i < nextBlink + 2;
    if (i === nextBlink + 2) nextBlink = i + 15 + Math.floor(r() * 10);
    const radius = 14 + 3 * Math.sin((2 * Math.PI * i) / 170);
    const angle = phase + (direction * 2 * Math.PI * i) / 24;
    const x = radius * Math.cos(angle);
    const y = radius * Math.sin(angle);
    // The camera zooms in slowly and steadily (1.15x to 1.45x of the tilted photo), so no pose
    // returns: a frame at a later time is always a little larger than any earlier one.
    const zoom = 1.15 + (0.3 * i) / total;
    const pick = isClosed ? tilted.closed : tilted.open;
    const src = sharp(pick.data, { raw: pick.raw });
    const w = Math.round(pick.raw.width * zoom);
    const h = Math.round(pick.raw.height * zoom);
    const left = Math.round((w - width) / 2 + x);
    const top = Math.round((h - height) / 2 + y);
    const { data } = await src
      .resize(w, h)
      .extract({ left, top, width, height })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    frames.push(data);
    thumbs.push((await fingerprint({ data, width, height })).thumb);
  }
  assertNoNearDuplicates(thumbs);

  const res = spawnSync(
    'ffmpeg',
    [
      ...['-loglevel', 'error', '-y', '-f', 'rawvideo', '-pix_fmt', 'rgb24'],
      ...['-s', `${width}x${height}`, '-r', String(FPS), '-i', '-', '-pix_fmt', 'yuv420p', out],
    ],
    { input: Buffer.concat(frames), maxBuffer: 1 << 20 },
  );
  if (res.status !== 0) throw new Error(`ffmpeg: ${res.stderr?.toString()}`);
  return out;
}

function assertNoNearDuplicates(thumbs: Buffer[]) {
  const prepared = thumbs.map(prepareFingerprint);
  for (let i = 0; i < thumbs.length; i++) {
    const from = fingerprintDistanceFrom(thumbs[i]!);
    for (let j = i + 1; j < thumbs.length; j++) {
      // Given up past MIN_FRAME_DISTANCE (Infinity): only a pair that comes closer is measured whole.
      const d = from(prepared[j]!, MIN_FRAME_DISTANCE);
      if (d < MIN_FRAME_DISTANCE)
        throw new Error(`blink video: frames ${i} and ${j} are near-duplicates (${d.toFixed(2)})`);
    }
  }
}

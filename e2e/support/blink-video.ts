/**
 * A fake-camera video for Chromium made at test time from the engine's blink fixtures
 * (tests/fixtures/faces/blink-open.jpg, blink-closed.jpg): 10 fps, eyes open with a closed phase of
 * 200 ms every 1.5-2.5 s, each frame shifted by a pixel or two and with its own sensor noise, so no
 * two frames are duplicates. Longer than the selfie needs, so Chromium's loop never repeats a frame
 * the server has seen. Raw RGB frames are piped to Debian's ffmpeg, which writes the .y4m.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const faces = path.resolve('tests', 'fixtures', 'faces');

async function raw(name: string) {
  const { data, info } = await sharp(path.join(faces, name))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Deterministic pseudo-random numbers (the same video every run). */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export async function makeBlinkVideo(dir: string, seconds = 30): Promise<string> {
  const out = path.join(dir, 'blink.y4m');
  if (existsSync(out)) return out;
  const open = await raw('blink-open.jpg');
  const closed = await raw('blink-closed.jpg');
  const { width, height } = open;
  const fps = 10;
  const r = rng(42);
  const frames: Buffer[] = [];
  let nextBlink = 20;
  for (let i = 0; i < seconds * fps; i++) {
    const isClosed = i >= nextBlink && i < nextBlink + 2;
    if (i === nextBlink + 2) nextBlink = i + 15 + Math.floor(r() * 10);
    const src = isClosed ? closed.data : open.data;
    const dx = Math.round(r() * 4 - 2);
    const dy = Math.round(r() * 4 - 2);
    const frame = Buffer.alloc(src.length);
    for (let y = 0; y < height; y++) {
      const sy = Math.min(height - 1, Math.max(0, y + dy));
      for (let x = 0; x < width; x++) {
        const sx = Math.min(width - 1, Math.max(0, x + dx));
        const o = (y * width + x) * 3;
        const so = (sy * width + sx) * 3;
        const n = (r() - 0.5) * 10;
        for (let c = 0; c < 3; c++) {
          const v = src[so + c]! + n;
          frame[o + c] = v < 0 ? 0 : v > 255 ? 255 : v;
        }
      }
    }
    frames.push(frame);
  }
  const res = spawnSync(
    'ffmpeg',
    [
      '-loglevel',
      'error',
      '-y',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-s',
      `${width}x${height}`,
      '-r',
      String(fps),
      '-i',
      '-',
      '-pix_fmt',
      'yuv420p',
      out,
    ],
    { input: Buffer.concat(frames), maxBuffer: 1 << 20 },
  );
  if (res.status !== 0) throw new Error(`ffmpeg: ${res.stderr?.toString()}`);
  return out;
}

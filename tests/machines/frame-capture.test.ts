import { describe, expect, it, vi } from 'vitest';
import {
  centreCrop,
  DOCUMENT_IMAGE,
  encodeFrame,
  fitWithin,
  scaleImage,
  startSampling,
  type ImageEnv,
  type Size,
} from '../../machines/shared/frame-capture';

function fakeEnv(decoded: Size = { width: 4032, height: 3024 }) {
  const log: Array<{ op: string; args: unknown[] }> = [];
  let closed = 0;
  const env: ImageEnv = {
    canvas: (size) => {
      log.push({ op: 'canvas', args: [size] });
      return {
        getContext: () =>
          ({
            drawImage: (...args: unknown[]) =>
              void log.push({ op: 'drawImage', args: args.slice(1) }),
            translate: (...args: unknown[]) => void log.push({ op: 'translate', args }),
            scale: (...args: unknown[]) => void log.push({ op: 'scale', args }),
          }) as never,
        toBlob: async (type, quality) => {
          log.push({ op: 'toBlob', args: [type, quality] });
          return new Blob(['jpeg'], { type });
        },
      };
    },
    decode: async () => ({
      source: {} as CanvasImageSource,
      size: decoded,
      close: () => void closed++,
    }),
  };
  return { env, log, closed: () => closed };
}

describe('frame capture and image scaling (machines/shared/frame-capture.ts)', () => {
  it('crops the centre of a frame to an aspect ratio', () => {
    // The selfie oval is 320x360: from a 640x480 camera frame, a 427x480 centre strip.
    expect(centreCrop({ width: 640, height: 480 }, 320 / 360)).toEqual({
      x: 107,
      y: 0,
      width: 427,
      height: 480,
    });
    expect(centreCrop({ width: 480, height: 640 }, 320 / 360)).toEqual({
      x: 0,
      y: 50,
      width: 480,
      height: 540,
    });
    expect(centreCrop({ width: 640, height: 480 })).toEqual({
      x: 0,
      y: 0,
      width: 640,
      height: 480,
    });
  });

  it('scales down to the limits, never up', () => {
    expect(fitWithin({ width: 4032, height: 3024 }, { maxSide: 2000 })).toEqual({
      width: 2000,
      height: 1500,
    });
    expect(fitWithin({ width: 3024, height: 4032 }, { maxSide: 2000 })).toEqual({
      width: 1500,
      height: 2000,
    });
    expect(fitWithin({ width: 1280, height: 720 }, { maxSide: 2000 })).toEqual({
      width: 1280,
      height: 720,
    });
    expect(fitWithin({ width: 427, height: 480 }, { maxWidth: 240 })).toEqual({
      width: 240,
      height: 270,
    });
  });

  it('draws the cropped region mirrored and scaled, then encodes JPEG at the quality asked', async () => {
    const { env, log } = fakeEnv();
    const blob = await encodeFrame(
      {} as CanvasImageSource,
      { width: 640, height: 480 },
      {
        cropAspect: 320 / 360,
        mirror: true,
        maxWidth: 240,
        quality: 0.7,
      },
      env,
    );
    expect(blob.type).toBe('image/jpeg');
    expect(log).toEqual([
      { op: 'canvas', args: [{ width: 240, height: 270 }] },
      { op: 'translate', args: [240, 0] },
      { op: 'scale', args: [-1, 1] },
      { op: 'drawImage', args: [107, 0, 427, 480, 0, 0, 240, 270] },
      { op: 'toBlob', args: ['image/jpeg', 0.7] },
    ]);
  });

  it('refuses a video that has no frame yet', async () => {
    const { env } = fakeEnv();
    await expect(
      encodeFrame({} as CanvasImageSource, { width: 0, height: 0 }, { quality: 0.7 }, env),
    ).rejects.toThrow();
  });

  it('scales a phone photo to 2000 px on its long side as JPEG 0.92 and frees the decoded image', async () => {
    const f = fakeEnv({ width: 4000, height: 3000 });
    await scaleImage(new Blob(['x'], { type: 'image/png' }), DOCUMENT_IMAGE, f.env);
    expect(f.log[0]).toEqual({ op: 'canvas', args: [{ width: 2000, height: 1500 }] });
    expect(f.log.at(-1)).toEqual({ op: 'toBlob', args: ['image/jpeg', 0.92] });
    expect(f.log.some((l) => l.op === 'scale')).toBe(false);
    expect(f.closed()).toBe(1);
  });

  it('captures at its pace while encodes are slow (several at once), delivering in capture order', async () => {
    vi.useFakeTimers();
    try {
      // Each encode takes 300 ms, finishing out of order would need a later one to be faster:
      // the second encode here is the fastest.
      const durations = [300, 100, 300, 300, 300, 300, 300];
      let k = 0;
      const env: ImageEnv = {
        canvas: () => ({
          getContext: () =>
            ({ drawImage: () => {}, translate: () => {}, scale: () => {} }) as never,
          toBlob: () => {
            const mine = k++;
            return new Promise<Blob>((resolve) =>
              setTimeout(() => resolve({ mine } as unknown as Blob), durations[mine] ?? 300),
            );
          },
        }),
        decode: async () => {
          throw new Error('unused');
        },
      };
      const video = { readyState: 4, videoWidth: 640, videoHeight: 480 } as HTMLVideoElement;
      const frames: Array<{ capturedAt: number; data: string }> = [];
      const stop = startSampling(
        video,
        125,
        { maxWidth: 160, quality: 0.6 },
        (f) => {
          frames.push({
            capturedAt: f.capturedAt,
            data: String((f.data as unknown as { mine: number }).mine),
          });
        },
        env,
      );
      await vi.advanceTimersByTimeAsync(125 * 8 + 400);
      stop();
      await vi.advanceTimersByTimeAsync(1000);
      // With one encode at a time a 300 ms encode took every third tick; now every tick until
      // MAX_ENCODING are under way, and in capture order (the fast second one waited for the first).
      expect(frames.map((f) => f.data)).toEqual(frames.map((_, i) => String(i)));
      const gaps = frames.slice(1).map((f, i) => f.capturedAt - frames[i]!.capturedAt);
      expect(Math.max(...gaps)).toBeLessThanOrEqual(250);
      expect(frames.length).toBeGreaterThanOrEqual(6);
    } finally {
      vi.useRealTimers();
    }
  });
});

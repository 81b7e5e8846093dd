import { describe, expect, it } from 'vitest';
import {
  centreCrop,
  DOCUMENT_IMAGE,
  encodeFrame,
  fitWithin,
  scaleImage,
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
});

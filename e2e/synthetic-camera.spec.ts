import sharp from 'sharp';
import type { BrowserContext, Page } from '@playwright/test';
import { LIVENESS_CUE_ATTR, LIVENESS_LIGHT_ATTR } from '../contract/identity';
import { fingerprint, fingerprintDistance } from '../server/identity/image';
import { expect, test } from './fixtures';
import { installSyntheticCamera, type SyntheticCameraOptions } from './support/synthetic-camera';

// The synthetic camera (issue 31 item 5) as an instrument on its own: a bare page (no app) on a
// secure origin, the camera opened as the app opens it, and every check read from the PIXELS of the
// stream through a video element and a canvas (never from the camera's own state). The regions are
// in the 640x480 frame: the face's cheeks and nose (inside the face mask whatever the patient's
// place in the oval), the background's top corners, and a band over both eyes.
// Seeds 21-24 are this file's (e2e/support/synthetic-camera.ts: one seed per test in a run).

type Box = { x: number; y: number; w: number; h: number };
const FACE: Box = { x: 270, y: 290, w: 100, h: 70 };
const BACKGROUND: Box[] = [
  { x: 8, y: 8, w: 100, h: 70 },
  { x: 532, y: 8, w: 100, h: 70 },
];
const EYES: Box = { x: 215, y: 228, w: 210, h: 60 };
const ORIGIN = 'http://localhost:9';

async function openCamera(context: BrowserContext, options: SyntheticCameraOptions): Promise<Page> {
  await installSyntheticCamera(context, options);
  const page = await context.newPage();
  // localhost is a secure context (getUserMedia exists there); nothing listens: the page is ours.
  await page.route(`${ORIGIN}/**`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>camera</title><div id="light"></div><div id="cues"></div>',
    }),
  );
  await page.goto(`${ORIGIN}/`);
  await page.evaluate(async () => {
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: { facingMode: { ideal: 'user' }, width: { ideal: 640 }, height: { ideal: 480 } },
    });
    const video = document.createElement('video');
    video.muted = true;
    video.srcObject = stream;
    await video.play();
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 480;
    Object.assign(window, { testVideo: video, testCanvas: canvas });
  });
  return page;
}

type Sample = { t: number; boxes: Array<[number, number, number]> };

/**
 * Every video frame for `ms` from now: its time (performance.now() when the page got it) and the
 * mean r, g, b (0-255) of each box. `mark` runs in the page at the start (e.g. sets a cue) and
 * its performance.now() is returned as `at`.
 */
async function sampleFrames(
  page: Page,
  ms: number,
  boxes: Box[],
  mark?: { attr: string; value: string | null; on: string },
): Promise<{ at: number; samples: Sample[] }> {
  return page.evaluate(
    async ({ ms, boxes, mark }) => {
      const { testVideo: video, testCanvas: canvas } = window as unknown as {
        testVideo: HTMLVideoElement;
        testCanvas: HTMLCanvasElement;
      };
      const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
      const samples: Array<{ t: number; boxes: Array<[number, number, number]> }> = [];
      const at = performance.now();
      if (mark) {
        const el = document.getElementById(mark.on)!;
        if (mark.value === null) el.removeAttribute(mark.attr);
        else el.setAttribute(mark.attr, mark.value);
      }
      await new Promise<void>((resolve) => {
        const onFrame = () => {
          const t = performance.now();
          ctx.drawImage(video, 0, 0, 640, 480);
          samples.push({
            t,
            boxes: boxes.map((b) => {
              const px = ctx.getImageData(b.x, b.y, b.w, b.h).data;
              const sum = [0, 0, 0];
              for (let i = 0; i < px.length; i += 4)
                for (let c = 0; c < 3; c++) sum[c]! += px[i + c]!;
              const n = px.length / 4;
              return [sum[0]! / n, sum[1]! / n, sum[2]! / n] as [number, number, number];
            }),
          });
          if (t - at < ms) video.requestVideoFrameCallback(onFrame);
          else resolve();
        };
        video.requestVideoFrameCallback(onFrame);
      });
      return { at, samples };
    },
    { ms, boxes, mark },
  );
}

const chroma = ([r, g, b]: [number, number, number]) => {
  const s = r + g + b || 1;
  return [r / s, g / s, b / s];
};
/** Mean chromaticity of box `i` over samples. */
const meanChroma = (samples: Sample[], i: number) => {
  const sum = [0, 0, 0];
  for (const s of samples) chroma(s.boxes[i]!).forEach((v, c) => (sum[c]! += v));
  return sum.map((v) => v / samples.length);
};
/** The shift of a region's chromaticity along the direction of the screen colour's chromaticity. */
const towards = (before: number[], after: number[], colour: number[]) => {
  const dir = colour.map((v) => v - 1 / 3);
  const norm = Math.hypot(...dir);
  return before.reduce((sum, b, c) => sum + ((after[c]! - b) * dir[c]!) / norm, 0);
};

test('a colour on data-liveness-light moves the face towards it, the background much less', async ({
  context,
}) => {
  const page = await openCamera(context, {
    seed: 21,
    lighting: 'window',
    tone: 'IV',
    screenBrightness: 0.8,
  });
  const boxes = [FACE, ...BACKGROUND];
  await sampleFrames(page, 800, boxes); // the exposure settles
  for (const colour of ['#2040ff', '#30ff40', '#ffd020']) {
    const before = await sampleFrames(page, 400, boxes);
    const after = await sampleFrames(page, 700, boxes, {
      attr: LIVENESS_LIGHT_ATTR,
      value: colour,
      on: 'light',
    });
    // The face shows the colour from 250 ms on (the camera's and screen's latency).
    const lit = after.samples.filter((s) => s.t - after.at >= 250);
    expect(lit.length).toBeGreaterThan(5);
    const rgb = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
    const c = chroma(rgb as [number, number, number]);
    const face = towards(meanChroma(before.samples, 0), meanChroma(lit, 0), c);
    const background = Math.max(
      ...[1, 2].map((i) => Math.abs(towards(meanChroma(before.samples, i), meanChroma(lit, i), c))),
    );
    test.info().annotations.push({
      type: 'light',
      description: `${colour}: face ${face.toFixed(4)}, background ${background.toFixed(4)}`,
    });
    expect(face, `${colour}: the face's shift towards the colour`).toBeGreaterThan(0.01);
    expect(face, `${colour}: face against background`).toBeGreaterThan(3 * background);
    await page.evaluate(
      (attr) => document.getElementById('light')!.removeAttribute(attr),
      LIVENESS_LIGHT_ATTR,
    );
    await sampleFrames(page, 900, boxes); // back to the page's own light
  }
});

test('the eyes close 200-900 ms after each data-liveness-cue appears', async ({ context }) => {
  // No spontaneous blinks and no missed cue: every closing in the window answers the cue.
  const page = await openCamera(context, {
    seed: 22,
    lighting: 'window',
    patient: { spontaneousPerMinute: 0, missCue: 0 },
  });
  await sampleFrames(page, 600, [EYES]);
  const lum = (s: Sample) => {
    const [r, g, b] = s.boxes[0]!;
    return 0.299 * r + 0.587 * g + 0.114 * b;
  };
  const latencies: number[] = [];
  for (let n = 1; n <= 3; n++) {
    const before = await sampleFrames(page, 400, [EYES]);
    const open = before.samples.map(lum);
    const base = open.reduce((a, b) => a + b, 0) / open.length;
    const spread = Math.max(...open.map((v) => Math.abs(v - base)));
    const cue = await sampleFrames(page, 1500, [EYES], {
      attr: LIVENESS_CUE_ATTR,
      value: String(n),
      on: 'cues',
    });
    await page.evaluate(
      (attr) => document.getElementById('cues')!.removeAttribute(attr),
      LIVENESS_CUE_ATTR,
    );
    // Closed lids cover the dark irises: the band gets brighter, well beyond the open eyes' spread.
    const peak = Math.max(...cue.samples.map(lum));
    expect(peak - base, `cue ${n}: the lids closed`).toBeGreaterThan(Math.max(4, 3 * spread));
    const closing = cue.samples.find((s) => lum(s) > base + (peak - base) / 2)!;
    latencies.push(closing.t - cue.at);
    await sampleFrames(page, 700, [EYES]);
  }
  test.info().annotations.push({
    type: 'cue latency',
    description: latencies.map((l) => `${Math.round(l)} ms`).join(', '),
  });
  for (const l of latencies) {
    expect(l).toBeGreaterThanOrEqual(200);
    expect(l).toBeLessThanOrEqual(900);
  }
});

/** `count` frames as the app sends them (the oval's centre crop, 160 px wide, JPEG 0.6), as PNG-free JPEG bytes. */
async function appFrames(page: Page, count: number, everyMs: number): Promise<Buffer[]> {
  const frames = await page.evaluate(
    async ({ count, everyMs }) => {
      const video = (window as unknown as { testVideo: HTMLVideoElement }).testVideo;
      const canvas = document.createElement('canvas');
      canvas.width = 160;
      canvas.height = 180;
      const ctx = canvas.getContext('2d')!;
      const out: string[] = [];
      for (let i = 0; i < count; i++) {
        // 320/360 of the 640x480 frame's height: 427 x 480 from x = 107.
        ctx.drawImage(video, 107, 0, 427, 480, 0, 0, 160, 180);
        out.push(canvas.toDataURL('image/jpeg', 0.6));
        await new Promise((r) => setTimeout(r, everyMs));
      }
      return out;
    },
    { count, everyMs },
  );
  return frames.map((f) => Buffer.from(f.slice(f.indexOf(',') + 1), 'base64'));
}

const thumbOf = async (jpeg: Buffer) => {
  const { data, info } = await sharp(jpeg)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return (await fingerprint({ data, width: info.width, height: info.height })).thumb;
};

test('two seeds never give the same frame, and a seed never repeats one', async ({ browser }) => {
  const thumbs: Buffer[][] = [];
  for (const seed of [23, 24]) {
    const context = await browser.newContext();
    // The same person, tone, light and phone: only what the seed itself draws differs (the place in
    // the oval, the sway's phase, the jitter, the noise).
    const page = await openCamera(context, {
      seed,
      face: 'blink',
      tone: 'III',
      lighting: 'window',
      screenBrightness: 0.7,
    });
    thumbs.push(await Promise.all((await appFrames(page, 12, 125)).map(thumbOf)));
    await context.close();
  }
  const [a, b] = thumbs as [Buffer[], Buffer[]];
  const across = a.flatMap((x) => b.map((y) => fingerprintDistance(x, y)));
  const within = [a, b].flatMap((frames) =>
    frames.flatMap((x, i) => frames.slice(i + 1).map((y) => fingerprintDistance(x, y))),
  );
  test.info().annotations.push({
    type: 'fingerprint distance',
    description: `across seeds min ${Math.min(...across).toFixed(2)}, within a seed min ${Math.min(...within).toFixed(2)} (the server's duplicate distance: 0.7)`,
  });
  // The server counts a frame as a duplicate at 0.7 or less; new captures measure 1.5+.
  expect(Math.min(...across)).toBeGreaterThan(1.5);
  expect(Math.min(...within)).toBeGreaterThan(0.7);
});

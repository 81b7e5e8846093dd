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
// Seeds 21-26 are this file's (e2e/support/synthetic-camera.ts: one seed per test in a run).

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
 * mean r, g, b (0-255) of each box. `mark` runs in the page at the start (sets a cue, or the track's
 * exposure compensation as the app sets it) and its performance.now() is returned as `at`. With
 * `enough`, sampling goes on past `ms` (up to 5 s) until that many frames came `from` ms on or
 * later: a busy machine's page gets fewer frames a second, and the check needs a fixed count.
 */
async function sampleFrames(
  page: Page,
  ms: number,
  boxes: Box[],
  mark?: { attr: string; value: string | null; on: string } | { exposureCompensation: number },
  enough?: { from: number; frames: number },
): Promise<{ at: number; samples: Sample[] }> {
  return page.evaluate(
    async ({ ms, boxes, mark, enough }) => {
      const { testVideo: video, testCanvas: canvas } = window as unknown as {
        testVideo: HTMLVideoElement;
        testCanvas: HTMLCanvasElement;
      };
      const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
      const samples: Array<{ t: number; boxes: Array<[number, number, number]> }> = [];
      const at = performance.now();
      if (mark && 'exposureCompensation' in mark) {
        const [track] = (video.srcObject as MediaStream).getVideoTracks();
        await track!.applyConstraints({
          advanced: [
            { exposureCompensation: mark.exposureCompensation } as MediaTrackConstraintSet,
          ],
        });
      } else if (mark) {
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
          const short =
            enough !== null &&
            t - at < 5000 &&
            samples.filter((s) => s.t - at >= enough.from).length < enough.frames;
          if (t - at < ms || short) video.requestVideoFrameCallback(onFrame);
          else resolve();
        };
        video.requestVideoFrameCallback(onFrame);
      });
      return { at, samples };
    },
    { ms, boxes, mark, enough: enough ?? null },
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
    const after = await sampleFrames(
      page,
      700,
      boxes,
      { attr: LIVENESS_LIGHT_ATTR, value: colour, on: 'light' },
      { from: 250, frames: 6 },
    );
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

/** The whole frame, and a sample's mean luma (BT.601) over its first box. */
const FRAME: Box = { x: 0, y: 0, w: 640, h: 480 };
const luma = (s: Sample) => {
  const [r, g, b] = s.boxes[0]!;
  return 0.299 * r + 0.587 * g + 0.114 * b;
};
const meanLuma = (samples: Sample[]) =>
  samples.reduce((sum, s) => sum + luma(s), 0) / Math.max(1, samples.length);

/** The camera's video track, as the page sees it: its exposure capability and setting. */
async function exposureOf(page: Page) {
  return page.evaluate(() => {
    const video = (window as unknown as { testVideo: HTMLVideoElement }).testVideo;
    const [track] = (video.srcObject as MediaStream).getVideoTracks();
    const capability = (track!.getCapabilities() as { exposureCompensation?: unknown })
      .exposureCompensation;
    const setting = (track!.getSettings() as { exposureCompensation?: unknown })
      .exposureCompensation;
    return { capability: capability ?? null, setting: setting ?? null };
  });
}

test('exposure compensation as on Android: -1 EV halves the picture through the slow auto exposure', async ({
  context,
  browser,
}) => {
  const page = await openCamera(context, { seed: 25, lighting: 'window', tone: 'V' });
  expect(await exposureOf(page)).toEqual({
    capability: { min: -2, max: 2, step: 1 / 6 },
    setting: 0,
  });
  // The exposure settles: two windows in a row within 2% of each other.
  let last = 0;
  await expect
    .poll(async () => {
      const now = meanLuma((await sampleFrames(page, 300, [FRAME])).samples);
      const change = Math.abs(now - last) / Math.max(1, now);
      last = now;
      return change;
    })
    .toBeLessThan(0.02);
  const before = meanLuma((await sampleFrames(page, 400, [FRAME])).samples);
  const { at, samples } = await sampleFrames(page, 1700, [FRAME], { exposureCompensation: -1 });
  expect((await exposureOf(page)).setting).toBe(-1);
  const ratioFrom = (from: number, to: number) => {
    const frames = samples.filter((s) => s.t - at >= from && s.t - at < to);
    expect(frames.length, `frames ${from}-${to} ms after`).toBeGreaterThan(0);
    return meanLuma(frames) / before;
  };
  // Not at once: the first frames still show about the old brightness (the model gives 0.9 at
  // 150 ms), then the camera's gain follows its time constant (about 0.54 at 1.5 s).
  const early = ratioFrom(0, 150);
  const late = ratioFrom(1400, 1700);
  test.info().annotations.push({
    type: 'exposure',
    description: `mean luma ${before.toFixed(1)}; -1 EV: ${early.toFixed(3)} in the first 150 ms, ${late.toFixed(3)} at 1.4-1.7 s`,
  });
  expect(early, 'the picture does not jump').toBeGreaterThan(0.85);
  expect(late).toBeGreaterThan(0.35);
  expect(late).toBeLessThan(0.75);
  // Beyond the range: the camera clamps it.
  await sampleFrames(page, 0, [FRAME], { exposureCompensation: -5 });
  expect((await exposureOf(page)).setting).toBe(-2);

  // Without the capability (iOS Safari, the file camera) the track has none of it.
  const other = await browser.newContext();
  const ios = await openCamera(other, {
    seed: 26,
    lighting: 'window',
    exposureCompensation: false,
  });
  expect(await exposureOf(ios)).toEqual({ capability: null, setting: null });
  await other.close();
});

test('the eyes close 200-900 ms after each data-liveness-cue appears', async ({ context }) => {
  // No spontaneous blinks and no missed cue: every closing in the window answers the cue. The lids
  // stay closed 300-400 ms (a patient's are 100-250 ms): a busy machine's page gets a frame every
  // 100-200 ms, and a shorter closing fell between two of them once in CI (2026-11-29, load 8: the
  // band's change read 3.57 at cue 2, the frame caught the eyes on their way); the latency
  // checked is the closing's start, which the length does not move.
  const page = await openCamera(context, {
    seed: 22,
    lighting: 'window',
    patient: { spontaneousPerMinute: 0, missCue: 0, closedMs: [300, 400] },
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

/**
 * `count` frames as the app sends them (the oval's centre crop, 160 px wide, JPEG 0.6), as PNG-free
 * JPEG bytes, each a new video frame at least `everyMs` after the last.
 */
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
        // Then a new frame of the camera's (a busy machine's page can go past 125 ms without one,
        // and the same frame drawn twice measured 0 here, 2026-11-30: that is not the camera
        // repeating itself).
        await new Promise((r) => setTimeout(r, everyMs));
        await new Promise<void>((r) => video.requestVideoFrameCallback(() => r()));
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

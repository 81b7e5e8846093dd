/**
 * A synthetic front camera for e2e (issue 31 item 5): `installSyntheticCamera(context, { seed })`
 * makes every page of the context answer a front-camera getUserMedia with the synthetic patient of
 * tests/synthetic/model.ts drawn live into a canvas stream (640x480, 30 fps): head sway and jitter,
 * sensor noise, skin tone, ambient light, the phone screen's light on the face, slow auto exposure
 * and white balance, camera latency, spontaneous blinks and one blink in answer to each cue the page
 * shows (`data-liveness-cue`), lit by the colour the page paints (`data-liveness-light`), held as
 * far as its `patient.scale` says and moved as the oval's framing hint says
 * (`data-liveness-framing`, issue 41), the screen's light on the head shaded as the Node renderer
 * shades it (tests/synthetic/model.ts screenLightWeight) and stronger closer (scale^2). With
 * `other`, a test can show another face for a while (`showOtherFace`: the face swap). The rear
 * camera (documents) stays Chromium's file camera, and so does a context without this call: the
 * file camera plays a fixed recording, which is the ATTACK the challenge must refuse.
 *
 * Seeds: the replay check refuses a frame that is a near-duplicate of another session's counted
 * frame (72 h; one database per e2e run), so each test's patient has its own seed: its own place in
 * the oval, sway phase, jitter, noise, tone, lighting and blink times (e2e/synthetic-camera.spec.ts
 * measures two seeds' frames apart with the server's fingerprint).
 *
 * Exposure compensation: the front camera's track offers it as Chrome on Android does (Image
 * Capture's `exposureCompensation`, -2..2 EV), unless `exposureCompensation: false` (iOS Safari,
 * Chromium's file camera); synthetic-camera.browser.ts says how the picture answers it.
 *
 * The page side (synthetic-camera.browser.ts) is bundled with esbuild once per test run.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { build } from 'esbuild';
import { bindLiveFace, inOneAtATime } from './live-face';
import {
  LIVENESS_CUE_ATTR,
  LIVENESS_FRAMING_ATTR,
  LIVENESS_LIGHT_ATTR,
} from '../../contract/identity';
import type {
  FaceEllipse,
  SyntheticCameraConfig,
  SyntheticCameraState,
} from './synthetic-camera.browser';

export type { SyntheticCameraState } from './synthetic-camera.browser';

export type SyntheticCameraOptions = Pick<
  SyntheticCameraConfig,
  | 'seed'
  | 'tone'
  | 'lighting'
  | 'screenBrightness'
  | 'patient'
  | 'exposureCompensation'
  | 'faceMetering'
> & {
  /** The blink pair tests/fixtures/faces/<face>-open.jpg / -closed.jpg (default 'blink'). */
  face?: SyntheticCameraConfig['face'];
  /** The camera's label (default a phone's front camera as Chrome on Android names it). */
  label?: string;
  fps?: number;
  /** Another blink pair the test can show instead of the patient's (`showOtherFace`). */
  other?: SyntheticCameraConfig['face'];
};

const faces = path.resolve('tests', 'fixtures', 'faces');

/**
 * Each fixture's face, for the skin tone's soft mask: the ellipse around the skin of the face in the
 * 640x480 photo (forehead to chin, cheek to cheek), read off the photos. The screen's light on the
 * head is the model's (tests/synthetic/model.ts FACE_ELLIPSES, HEAD_ELLIPSES), as the Node
 * renderer's.
 */
export const FACE_ELLIPSES: Record<SyntheticCameraConfig['face'], FaceEllipse> = {
  blink: { cx: 322, cy: 315, rx: 118, ry: 130 },
  'blink-b': { cx: 318, cy: 285, rx: 120, ry: 140 },
};

let bundle: Promise<string> | null = null;

/** The page script, built once per run (a worker process) from TypeScript. */
function pageScript(): Promise<string> {
  bundle ??= build({
    entryPoints: [path.resolve('e2e', 'support', 'synthetic-camera.browser.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: '__syntheticCameraModule',
    target: 'chrome120',
    logLevel: 'silent',
  }).then((r) => r.outputFiles[0]!.text);
  return bundle;
}

const dataUrl = (file: string) =>
  `data:image/jpeg;base64,${readFileSync(path.join(faces, file)).toString('base64')}`;
const imagesOf = (face: SyntheticCameraConfig['face']) => ({
  open: dataUrl(`${face}-open.jpg`),
  closed: dataUrl(`${face}-closed.jpg`),
});

/** The config the page side gets for these options. */
export function syntheticCameraConfig(options: SyntheticCameraOptions): SyntheticCameraConfig {
  const face = options.face ?? 'blink';
  return {
    seed: options.seed,
    face,
    tone: options.tone,
    lighting: options.lighting,
    screenBrightness: options.screenBrightness,
    patient: options.patient,
    images: imagesOf(face),
    ellipse: FACE_ELLIPSES[face],
    ...(options.other
      ? {
          other: {
            face: options.other,
            images: imagesOf(options.other),
            ellipse: FACE_ELLIPSES[options.other],
          },
        }
      : {}),
    lightAttr: LIVENESS_LIGHT_ATTR,
    cueAttr: LIVENESS_CUE_ATTR,
    framingAttr: LIVENESS_FRAMING_ATTR,
    label: options.label ?? 'camera2 1, facing front',
    width: 640,
    height: 480,
    fps: options.fps ?? 30,
    exposureCompensation: options.exposureCompensation ?? true,
    ...(options.faceMetering ? { faceMetering: options.faceMetering } : {}),
  };
}

/** Every page of `context` opened from now on has the synthetic front camera of patient `seed`. */
export async function installSyntheticCamera(
  context: BrowserContext,
  options: SyntheticCameraOptions,
): Promise<void> {
  if (!Number.isInteger(options.seed) || options.seed < 1)
    throw new Error(`synthetic camera: seed must be a positive integer (${options.seed})`);
  const script = await pageScript();
  const config = JSON.stringify(syntheticCameraConfig(options));
  if (inOneAtATime()) await bindLiveFace(context);
  await context.addInitScript({
    content: `${script}\n__syntheticCameraModule.installSyntheticCamera(${config});`,
  });
}

/**
 * The synthetic camera of `page` shows its `other` face for `ms` from now (the frames show it the
 * camera's latency later), its eyes closed once `blinkAt` ms into it for `closedMs`; then the
 * patient's own face again.
 */
export async function showOtherFace(
  page: Page,
  ms: number,
  blinkAt = ms / 2,
  closedMs = 250,
): Promise<void> {
  await page.evaluate(
    ([ms, blinkAt, closedMs]) => {
      const control = window.__syntheticCameraControl;
      if (!control) throw new Error('synthetic camera: none on this page');
      control.showOther(ms!, blinkAt, closedMs);
    },
    [ms, blinkAt, closedMs],
  );
}

/** What the synthetic camera of `page` did so far (its state, copied out of the page). */
export async function syntheticCameraState(page: Page): Promise<SyntheticCameraState> {
  const state = await page.evaluate(() => window.__syntheticCamera ?? null);
  if (!state) throw new Error('synthetic camera: none on this page');
  return state;
}

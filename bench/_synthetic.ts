/**
 * The synthetic patient of issue 31 rendered in Node (not a bench itself: the runner skips files
 * starting with '_'), for the challenge bench (bench/liveness-challenge.ts) and anyone who needs
 * frames that react to the screen: the model is tests/synthetic/model.ts (shared with the e2e
 * camera), this file only draws it.
 *
 * One frame, as a phone and the browser make it:
 *   - the scene at `t - cameraLatencyMs` (the frame captured at t shows an older scene): the face
 *     fixture pair (any of BLINK_FACES: blink, blink-b, blink-c..h; open and closed blended by `eyesClosedAt`), moved by the head's
 *     sway and jitter (`headAt`), at the oval's region of a 640x480 capture (tests/identity/frames.ts
 *     OVAL);
 *   - the skin tone inside a soft face mask (the fixture's own colour times the tone's factor, on
 *     skin-coloured pixels only: the eyes' whites and the teeth keep theirs);
 *   - the light (`illumination`): the lighting's ambient plus the screen's colour shown at the scene's
 *     time, strongest on the head (a soft, wider mask) and weak on the background; or, for a face
 *     shown on a screen held to the camera ('flat'), the same weak light on the whole image;
 *   - the camera's slow auto exposure (metered mostly on the face, as phones' front cameras do) and
 *     white balance (the whole frame's) (`cameraStep`, one state per camera), the
 *     lighting's sensor noise, and the phone's own JPEG (0.7);
 *   - then the browser's frame policy (contract/frame-policy.ts selfieFramePolicy): the oval's
 *     region scaled to 160 px wide, JPEG 0.6.
 * Pixel values are the model's linear 0..1 (fixture pixel / 255), no gamma. Deterministic: the same
 * patient, scene and capture times give the same bytes.
 */
import sharp from 'sharp';
import { selfieFramePolicy, type FramePolicy } from '../contract/frame-policy';
import { fixture, OVAL } from '../tests/identity/frames';
import {
  cameraStart,
  cameraStep,
  ellipseDistance,
  eyesClosedAt,
  FACE_ELLIPSES,
  HEAD_ELLIPSES,
  headAt,
  illumination,
  litAtScale,
  rng,
  screenLightWeight,
  screenRgb,
  softEllipse,
  type CameraState,
  type AnySyntheticPatient,
  type BlinkFace,
  type Rgb,
  type SyntheticPatient,
} from '../tests/synthetic/model';

/** The fixture pairs' face and head (tests/synthetic/model.ts, shared with the e2e camera). */
export { FACE_ELLIPSES, HEAD_ELLIPSES };
/** A face on a screen held to the camera: the phone's light reaches the whole image alike, this much of the face's. */
export const FLAT_WEIGHT = 0.15;
/**
 * How the patient holds the phone (issue 41 item 6): the face's size in the oval, as a zoom of the
 * fixture about its face's centre, and the screen's light on the face with it (the face is closer:
 * the inverse square of the distance, which goes with the zoom: tests/synthetic/model.ts
 * litAtScale). The zoom is of the face's size, not of the photo: 'arm' is the face of `blink` as
 * its photo has it (about 0.56 of the oval's width), and every other face is brought to that size
 * first (faceScale), since the photos were cropped tighter or looser than heads differ (blink-c..h
 * are 1.18-1.27 times blink's: zoomed 1.5 at 'fill' they were 1.07 of the frame, past the oval).
 */
export const FRAMINGS = { fill: 1.5, arm: 1, far: 0.7 } as const;
/** The zoom that gives face `f` the size of blink's face in its photo (faces' own width, FACE_ELLIPSES). */
export const faceScale = (f: BlinkFace) => FACE_ELLIPSES.blink.rx / FACE_ELLIPSES[f].rx;
export type Framing = keyof typeof FRAMINGS;
/** The phone camera's own JPEG quality (0-100). */
export const CAMERA_QUALITY = 70;
/** How much of the exposure's metering is the face's (face-priority auto exposure). */
export const FACE_METERING = 0.6;
/** The capture's pixels under the oval (whole pixels of the 640x480 frame). */
const REGION = {
  left: Math.floor(OVAL.left),
  top: OVAL.top,
  width: Math.round(OVAL.width),
  height: OVAL.height,
};

/**
 * A face's fixture pair (0..1 per channel) and its masks per pixel: `skin` (the tone's weight) and
 * `lit` (the screen's light on the head: tests/synthetic/model.ts screenLightWeight).
 */
type Pair = {
  open: Float32Array;
  closed: Float32Array;
  /** The tone's weight on the open-eyed and the closed-eyed picture. */
  skin: Float32Array;
  skinClosed: Float32Array;
  lit: Float32Array;
  width: number;
  height: number;
};
const pairs = new Map<string, Promise<Pair>>();

async function decode(name: string) {
  const { data, info } = await sharp(fixture('faces', name))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const out = new Float32Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = data[i]! / 255;
  return { data: out, width: info.width, height: info.height };
}

/** Pictures placed by the caller (`placeFace`), by name: a face with its eyes open only. */
const placed = new Map<string, { data: Float32Array; width: number; height: number }>();

/**
 * A face of the caller's (bench/_faces.ts: issue 41's held-out faces for the light's statistic) under
 * a name of its own: its 640x480 picture (0..1) and its face's and head's ellipses, registered
 * beside the fixture pairs' in tests/synthetic/model.ts (the shading reads them there). It has no
 * closed-eye picture: for the light only, never for blinks.
 */
export function placeFace(
  name: string,
  picture: { data: Float32Array; width: number; height: number },
  face: (typeof FACE_ELLIPSES)['blink'],
  head: (typeof HEAD_ELLIPSES)['blink'],
): SyntheticPatient['face'] {
  // Typed as a patient's face for bench/_light-tuning.ts (its patients are plain SyntheticPatients).
  const as = name as SyntheticPatient['face'];
  placed.set(name, picture);
  FACE_ELLIPSES[as] = face;
  HEAD_ELLIPSES[as] = head;
  pairs.delete(name);
  return as;
}

/** The fixture pair of a face and its masks, made once. */
function facePair(face: BlinkFace): Promise<Pair> {
  let p = pairs.get(face);
  if (!p) {
    const own = placed.get(face);
    const pictures = own
      ? Promise.resolve([own, own] as const)
      : Promise.all([decode(`${face}-open.jpg`), decode(`${face}-closed.jpg`)]);
    p = pictures.then(([o, c]) => {
      const { width, height } = o;
      const f = FACE_ELLIPSES[face];
      const skin = new Float32Array(width * height);
      const skinClosed = new Float32Array(width * height);
      const lit = new Float32Array(width * height);
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) {
          const sx = x + 0.5;
          const sy = y + 0.5;
          const m = y * width + x;
          const inFace = softEllipse(ellipseDistance(f, sx, sy));
          skin[m] = inFace * skinLike(o.data, m * 3);
          skinClosed[m] = inFace * skinLike(c.data, m * 3);
          lit[m] = screenLightWeight(face, sx, sy);
        }
      return { open: o.data, closed: c.data, skin, skinClosed, lit, width, height };
    });
    pairs.set(face, p);
  }
  return p;
}

/**
 * How much a fixture pixel is skin (the tone applies to it): warm (red over blue), so the eyes'
 * whites, the irises and the teeth keep their own colour on a darker tone.
 */
function skinLike(px: Float32Array, i: number): number {
  const warm = px[i]! - px[i + 2]!;
  if (warm <= 0.06 || px[i]! < px[i + 1]!) return 0;
  return warm >= 0.16 ? 1 : (warm - 0.06) / 0.1;
}

/** What the camera sees, on the scene's clock (ms). */
export type Scene = {
  /**
   * The colour the screen around the oval shows at scene time `t` ('#rrggbb'), or null for the
   * page's own background. The caller adds the display latency (the screen changes after the page
   * asks).
   */
  screenAt(t: number): string | null;
  /** The eyes' closed phases [start, end) on the scene's clock (cued and spontaneous). */
  blinks: ReadonlyArray<[number, number]>;
};

export type SyntheticCameraOptions = {
  /**
   * 'face' (a real face: the screen's light is strong on the head, weak on the background) or
   * 'flat' (a face on a screen held to the camera: the light reflects on the whole image alike,
   * weakly: FLAT_WEIGHT) or 'print' (a printed photo held to the camera: paper reflects the light as
   * skin does, but flat: the face's light on the whole image alike, no shading).
   */
  reflection?: 'face' | 'flat' | 'print';
  /** How the patient holds the phone (FRAMINGS): 'arm' by default. */
  framing?: Framing;
  /**
   * The patient's move of the phone by scene time `t` (tests/synthetic/model.ts followFraming and
   * scaleAt: 1 where they hold it, 0.8 after 'Alejá un poco el celular'...), times the framing.
   */
  distance?: (t: number) => number;
  /** The browser's frame policy (its width and JPEG quality); the selfie's by default. */
  policy?: FramePolicy;
  /** The phone camera's own JPEG quality (0-100), CAMERA_QUALITY by default. */
  cameraQuality?: number;
  /**
   * Exposure compensation (EV) asked by capture time `t` (the browser's backlight guard): the auto
   * exposure's target times 2^EV, reached at the exposure's own pace (the brightness it meters is
   * taken as 2^-EV brighter); white balance unchanged.
   */
  exposureEv?: (t: number) => number;
};

export type SyntheticCamera = {
  /** The frame captured at `t` (ms), as the browser sends it. Call in increasing `t`. */
  capture(t: number, scene: Scene): Promise<Buffer>;
  /** The same frame before the phone's and the browser's JPEG (raw RGB, REGION's size): for tests. */
  render(t: number, scene: Scene): Promise<{ data: Buffer; width: number; height: number }>;
};

/** A phone camera in front of patient `p`: one auto exposure/white balance state, its own noise. */
export function syntheticCamera(
  p: AnySyntheticPatient,
  o: SyntheticCameraOptions = {},
): SyntheticCamera {
  const policy = o.policy ?? selfieFramePolicy;
  const cameraQuality = o.cameraQuality ?? CAMERA_QUALITY;
  const flat = o.reflection === 'flat' || o.reflection === 'print';
  const flatWeight = o.reflection === 'print' ? 1 : FLAT_WEIGHT;
  const framed = FRAMINGS[o.framing ?? 'arm'];
  const jitter = rng(p.seed * 7_919 + 101);
  const noise = rng(p.seed * 104_729 + 3);
  const W = REGION.width;
  const H = REGION.height;
  const radiance = new Float32Array(W * H * 3);
  let camera: CameraState | null = null;
  let last = -Infinity;

  async function render(t: number, scene: Scene) {
    if (t < last) throw new Error(`captures go back in time: ${t} after ${last}`);
    last = t;
    const src = await facePair(p.face);
    const sceneT = t - p.cameraLatencyMs;
    const closed = eyesClosedAt(scene.blinks, sceneT);
    const held = framed * (o.distance?.(sceneT) ?? 1);
    const zoom = held * faceScale(p.face);
    // Closer to the screen: its light on the face goes with the inverse square of the distance.
    const lit = litAtScale(p, held);
    const [hx, hy] = headAt(p, sceneT, jitter);
    const screen: Rgb = screenRgb(scene.screenAt(sceneT));
    // The light at a few weights, interpolated per pixel (illumination is linear in the weight).
    const light0 = illumination(lit, screen, flat ? flatWeight : 0);
    const light1 = illumination(lit, screen, flat ? flatWeight : 1);
    const tone = p.tone.factor;
    const { width: sw, height: sh } = src;
    // The head moved by (hx, hy) and zoomed by the framing: each pixel samples the fixture bilinearly
    // (at zoom 1, every pixel at the same sub-pixel phase). Closer than arm's length the patient
    // fills the oval and centres the face in it (as the e2e camera's fill patient does: the fixture's
    // face sits 68 px below the oval's centre, and zoomed about itself its chin left the frame from
    // 1.4 on); at arm's length and further it stays where the fixture has it.
    const fc = FACE_ELLIPSES[p.face];
    const to =
      zoom > 1
        ? { x: REGION.left + REGION.width / 2, y: REGION.top + REGION.height / 2 }
        : { x: fc.cx, y: fc.cy };
    const { open, closed: shut, skin, skinClosed, lit: litWeight } = src;
    const sum: Rgb = [0, 0, 0];
    /** The skin's radiance (all channels) and weight: the exposure meters on the face. */
    let faceSum = 0;
    let faceWeight = 0;
    for (let y = 0; y < H; y++) {
      const sy = fc.cy + (REGION.top + y + 0.5 - hy - to.y) / zoom;
      const yc = Math.min(sh - 2, Math.max(0, sy));
      const y0 = Math.floor(yc);
      const fy = yc - y0;
      for (let x = 0; x < W; x++) {
        const sx = fc.cx + (REGION.left + x + 0.5 - hx - to.x) / zoom;
        const xc = Math.min(sw - 2, Math.max(0, sx));
        const x0 = Math.floor(xc);
        const fx = xc - x0;
        const w00 = (1 - fx) * (1 - fy);
        const w10 = fx * (1 - fy);
        const w01 = (1 - fx) * fy;
        const w11 = fx * fy;
        const m = y0 * sw + x0;
        const i00 = m * 3;
        const i10 = i00 + 3;
        const i01 = i00 + sw * 3;
        const i11 = i01 + 3;
        const k = closed ? skin[m]! * (1 - closed) + skinClosed[m]! * closed : skin[m]!;
        const l = flat ? 0 : litWeight[m]!;
        faceWeight += k;
        const o = (y * W + x) * 3;
        for (let c = 0; c < 3; c++) {
          let a =
            open[i00 + c]! * w00 +
            open[i10 + c]! * w10 +
            open[i01 + c]! * w01 +
            open[i11 + c]! * w11;
          if (closed) {
            const z =
              shut[i00 + c]! * w00 +
              shut[i10 + c]! * w10 +
              shut[i01 + c]! * w01 +
              shut[i11 + c]! * w11;
            a = a * (1 - closed) + z * closed;
          }
          const v = a * (1 + (tone[c]! - 1) * k) * (light0[c]! + (light1[c]! - light0[c]!) * l);
          radiance[o + c] = v;
          sum[c] = sum[c]! + v;
          faceSum += v * k;
        }
      }
    }
    const n = W * H;
    const mean: Rgb = [sum[0] / n, sum[1] / n, sum[2] / n];
    // Face-priority exposure (as phones' front cameras do): the brightness metered is FACE_METERING
    // the face's and the rest the frame's; the white balance stays the whole frame's.
    const lum = (mean[0] + mean[1] + mean[2]) / 3;
    const faceLum = faceWeight ? faceSum / faceWeight / 3 : lum;
    const metered = FACE_METERING * faceLum + (1 - FACE_METERING) * lum;
    const scale = metered / Math.max(1e-6, lum);
    const bias = scale * 2 ** -(o.exposureEv?.(t) ?? 0);
    const meter: Rgb = [mean[0] * bias, mean[1] * bias, mean[2] * bias];
    camera = camera ? cameraStep(camera, meter, t) : cameraStart(meter, t);
    const g = camera.gain;
    const sigma = p.lighting.noise;
    const out = Buffer.alloc(n * 3);
    for (let i = 0; i < out.length; i += 3) {
      for (let c = 0; c < 3; c++) {
        // Sum of three uniforms: a near-normal deviate of standard deviation `sigma` grey levels.
        const v = radiance[i + c]! * g[c]! * 255 + (noise() + noise() + noise() - 1.5) * 2 * sigma;
        out[i + c] = v < 0 ? 0 : v > 255 ? 255 : v;
      }
    }
    return { data: out, width: W, height: H };
  }

  return {
    render,
    async capture(t, scene) {
      const { data, width, height } = await render(t, scene);
      const phone = await sharp(data, { raw: { width, height, channels: 3 } })
        .jpeg({ quality: cameraQuality })
        .toBuffer();
      return sharp(phone)
        .resize({ width: policy.maxWidth, height: Math.round((policy.maxWidth * 360) / 320) })
        .jpeg({ quality: Math.round(policy.quality * 100) })
        .toBuffer();
    },
  };
}

/**
 * The face's and the background's mean chromaticity (r, g, b over r+g+b) of a rendered or decoded
 * frame of the oval's region at any width: the face is the inner part of the fixture's face
 * ellipse (patient at rest), the background the frame outside the head (none for blink-b, whose hair fills the
 * frame's sides: use blink). For tests and the bench's
 * own check of its renderer (the server measures on its own face box).
 */
export function chromaticity(
  frame: { data: Buffer; width: number; height: number; channels?: number },
  faceName: BlinkFace,
  offset: [number, number] = [0, 0],
): { face: Rgb; background: Rgb } {
  const face = FACE_ELLIPSES[faceName];
  const head = HEAD_ELLIPSES[faceName];
  const ch = frame.channels ?? 3;
  const k = REGION.width / frame.width;
  const acc = { face: [0, 0, 0] as Rgb, background: [0, 0, 0] as Rgb };
  for (let y = 0; y < frame.height; y++) {
    for (let x = 0; x < frame.width; x++) {
      const sx = REGION.left + (x + 0.5) * k - offset[0];
      const sy = REGION.top + (y + 0.5) * k - offset[1];
      const d = Math.hypot((sx - face.cx) / face.rx, (sy - face.cy) / face.ry);
      const h = Math.hypot((sx - head.cx) / head.rx, (sy - head.cy) / head.ry);
      const into = d < 0.6 ? acc.face : h > 1.15 ? acc.background : null;
      if (!into) continue;
      const i = (y * frame.width + x) * ch;
      for (let c = 0; c < 3; c++) into[c] = into[c]! + frame.data[i + c]!;
    }
  }
  const norm = (v: Rgb): Rgb => {
    const s = v[0] + v[1] + v[2] || 1;
    return [v[0] / s, v[1] / s, v[2] / s];
  };
  return { face: norm(acc.face), background: norm(acc.background) };
}

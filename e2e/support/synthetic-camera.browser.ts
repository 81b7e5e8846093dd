/**
 * The synthetic camera's page side (issue 31): bundled by esbuild at test time
 * (e2e/support/synthetic-camera.ts) and run as an init script before any page script. It replaces
 * `navigator.mediaDevices.getUserMedia` for the FRONT camera (facingMode 'user', or none) with a
 * canvas `captureStream` drawing the synthetic patient of tests/synthetic/model.ts; a request for
 * the rear camera ('environment': the documents) goes to the browser's own (Chromium's file camera).
 *
 * Each frame at time t (ms since the page first opened this camera) shows the scene at
 * t - cameraLatencyMs: the fixture photo (eyes open, or closed during a blink, the lids blended while
 * they move) recoloured by the skin tone inside a soft face mask, moved by the head's sway and a
 * jitter per frame, lit by the ambient light plus the phone screen's light (much stronger on the head
 * than on the background: `illumination`, and on the head shaded as the Node renderer shades it:
 * Lambert on the face's ellipse, HAIR_SHADE on the rest of the head, `screenLightWeight`), through
 * the camera's slow auto exposure and white balance (`cameraStep`), with sensor noise. The screen's
 * colour is read from the page's `data-liveness-light` element (shown displayLatencyMs after the
 * page sets it), and every time a `data-liveness-cue` element appears (or its value changes) the
 * patient answers with a blink (`blinkOnCue`), on top of spontaneous ones. The phone's distance
 * (issue 41, the patient's `scale`) changes the face's size in the picture and the screen's light
 * on it (scale^2: the face is closer to the screen, `litAtScale`), and the patient follows the
 * oval's framing hint (`data-liveness-framing`: 'too_far' closer, 'too_close' back a little;
 * `followFraming`).
 *
 * Another face (issue 41's face swap): with `other` in the config the camera also holds a second
 * fixture pair, and `window.__syntheticCameraControl.showOther(ms, blinkAt)` shows it instead of the
 * patient's for `ms` from now (on the scene's clock: the frames show it cameraLatencyMs later),
 * closing its eyes once `blinkAt` ms into it; the patient's own face comes back after.
 *
 * Exposure compensation (`exposureCompensation`, default on) as Chrome on Android offers it through
 * the Image Capture constraints: the track's capabilities and settings carry it, and
 * `applyConstraints` sets it (clamped and snapped to the step). The camera then aims at the target
 * brightness times 2^EV and gets there through the same slow auto exposure, as a phone does; with
 * the option off the track has none of it, like iOS Safari or Chromium's file camera.
 *
 * Canvas 2D only (Chromium and the server share 2 cores): per frame two image draws (the photo,
 * the closed-eye photo when the lids move), one 'multiply' of a small light map scaled up (made of
 * the head's pre-made light weights, drawn where the photo is, times the screen's extra light, plus
 * the background's), a 'lighter' self-draw when the exposure brightens, and two 'overlay' draws of
 * pre-made noise tiles (fine, and coarse blotches) at random offsets. Never a per-pixel loop per
 * frame.
 */
import {
  blinkOnCue,
  cameraStart,
  cameraStep,
  distanceStart,
  eyesClosedAt,
  followFraming,
  headAt,
  illumination,
  LIGHTINGS,
  litAtScale,
  makeSyntheticPatient,
  rng,
  scaleAt,
  screenLightWeight,
  screenRgb,
  SKIN_TONES,
  spontaneousBlinks,
  type CameraState,
  type DistanceMove,
  type Rgb,
  type SyntheticPatient,
} from '../../tests/synthetic/model';

/** The face's soft mask: 1 inside 0.8 of the ellipse, fading to 0 at 1.2 of it (px of the photo). */
export type FaceEllipse = { cx: number; cy: number; rx: number; ry: number };

/** What the Node side passes (JSON). */
export type SyntheticCameraConfig = {
  seed: number;
  face: SyntheticPatient['face'];
  /** Skin tone name of SKIN_TONES ('II'..'VI'), lighting name of LIGHTINGS; drawn from the seed if absent. */
  tone?: string;
  lighting?: string;
  screenBrightness?: number;
  /** Any other field of the patient, over what the seed drew (e.g. spontaneousPerMinute: 0). */
  patient?: Partial<Omit<SyntheticPatient, 'seed' | 'face' | 'tone' | 'lighting'>>;
  /** data: URLs of the fixture photos (640x480). */
  images: { open: string; closed: string };
  /** The skin tone's soft mask. */
  ellipse: FaceEllipse;
  /** Another face the page can show instead of the patient's for a while (the face swap). */
  other?: {
    face: SyntheticPatient['face'];
    images: { open: string; closed: string };
    ellipse: FaceEllipse;
  };
  lightAttr: string;
  cueAttr: string;
  /** The oval's framing hint (issue 41): the patient moves the phone as it says (followFraming). */
  framingAttr: string;
  /** The track's label (a phone's front camera, not a virtual one). */
  label: string;
  width: number;
  height: number;
  fps: number;
  /** Whether the track offers exposure compensation (default true: Chrome on Android). */
  exposureCompensation?: boolean;
  /**
   * How much of the exposure's metering is the face's (0, the default: the whole frame's; phones'
   * front cameras meter mostly on the face, bench/_synthetic.ts FACE_METERING 0.6, and then a dark
   * face before a bright window burns the window).
   */
  faceMetering?: number;
};

/** What the page can read of the camera (debugging; the e2e checks measure pixels instead). */
export type SyntheticCameraState = {
  patient: SyntheticPatient;
  /** The blinks answering cues: [closed from, closed until] on the camera's clock (ms). */
  cueBlinks: Array<[number, number]>;
  /** performance.now() of the camera's clock origin (null before the first opening). */
  origin: number | null;
  frames: number;
  /** Time spent drawing frames (ms, in total): the camera's own CPU cost. */
  drawMs: number;
  /** The exposure compensation the page set (EV; 0 when the track opens or offers none). */
  exposureEv: number;
  /** The face's scale in the picture now (the phone's distance: 1 the usual framing). */
  scale: number;
  /** The framing hints the patient read (the page's data-liveness-framing values, in order). */
  framingRead: string[];
  /** The fixture pair the last frame showed (the patient's, or `other` during a swap). */
  showing: SyntheticPatient['face'];
  /** Where the other face was asked for: [from, until] on the scene's clock (ms). */
  swaps: Array<[number, number]>;
};

/** What a test can make the camera do (page.evaluate). */
export type SyntheticCameraControl = {
  /**
   * Shows the config's `other` face for `ms` from now (scene time), its eyes closed once from
   * `blinkAt` ms into it for `closedMs`; the patient's face comes back after.
   */
  showOther(ms: number, blinkAt?: number, closedMs?: number): void;
};

declare global {
  interface Window {
    /** The live-face lock's binding (e2e/support/live-face.ts bindLiveFace), where one is bound. */
    __e2eLiveFace?: (op: 'acquire' | 'release') => Promise<void>;
    __syntheticCamera?: SyntheticCameraState;
    __syntheticCameraControl?: SyntheticCameraControl;
  }
}

const NOISE_TILES = 4;
const NOISE_TILE = 128;
/** The coarse noise's grain (px): its tiles are drawn this many times larger. */
const NOISE_COARSE = 6;
/** The light map's size: the light is smooth, the 'multiply' draw scales it up. */
const MAP_W = 80;
const MAP_H = 60;
/** A phone's front camera's range (EV): Camera2 commonly gives -12..12 steps of 1/6 EV. */
const EXPOSURE_COMPENSATION = { min: -2, max: 2, step: 1 / 6 };

/** An exposureCompensation constraint's value: a number, or a ConstrainDouble's exact or ideal. */
function evOf(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (value && typeof value === 'object') {
    const { exact, ideal } = value as { exact?: unknown; ideal?: unknown };
    return evOf(exact ?? ideal);
  }
  return undefined;
}

/**
 * Takes exposureCompensation out of a constraint set (the top level or an advanced one): its value,
 * and the rest for the browser's own applyConstraints.
 */
function takeExposure(set: MediaTrackConstraintSet): {
  ev: number | undefined;
  rest: MediaTrackConstraintSet;
} {
  const { exposureCompensation, ...rest } = set as MediaTrackConstraintSet & {
    exposureCompensation?: unknown;
  };
  return { ev: evOf(exposureCompensation), rest };
}

type Facing = 'user' | 'environment' | undefined;

/** The facingMode a video constraint asks for (a string, { ideal }, { exact }, or a list). */
function facingOf(video: MediaStreamConstraints['video']): Facing {
  if (!video || typeof video !== 'object') return undefined;
  const f = video.facingMode;
  const pickOne = (v: unknown): Facing => {
    const s = Array.isArray(v) ? v[0] : v;
    return s === 'user' || s === 'environment' ? s : undefined;
  };
  if (typeof f === 'string' || Array.isArray(f)) return pickOne(f);
  if (f && typeof f === 'object') return pickOne(f.exact ?? f.ideal);
  return undefined;
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('synthetic camera: fixture image'));
    img.src = src;
  });
}

function canvasOf(width: number, height: number) {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d', { willReadFrequently: false });
  if (!ctx) throw new Error('synthetic camera: no 2d context');
  return { canvas, ctx };
}

/** Soft face mask weight at (x, y). */
function maskAt(e: FaceEllipse, x: number, y: number): number {
  const r = Math.hypot((x - e.cx) / e.rx, (y - e.cy) / e.ry);
  return Math.max(0, Math.min(1, (1.2 - r) / 0.4));
}

/** The light weights' canvas: a quarter of the photo's size (the light is smooth). */
const LIGHT_STEP = 4;

/**
 * The screen's light on the head of fixture pair `face` (tests/synthetic/model.ts
 * screenLightWeight, the Node renderer's), per pixel as grey (255: the face's full light), a
 * quarter of the photo's size, made once.
 */
function lightWeights(face: SyntheticPatient['face'], cfg: SyntheticCameraConfig) {
  const w = Math.ceil(cfg.width / LIGHT_STEP);
  const h = Math.ceil(cfg.height / LIGHT_STEP);
  const { canvas, ctx } = canvasOf(w, h);
  const data = ctx.createImageData(w, h);
  // The photo's pixels are the model's, in the photo's own size (640x480).
  const k = 640 / cfg.width;
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const v = screenLightWeight(face, (x + 0.5) * LIGHT_STEP * k, (y + 0.5) * LIGHT_STEP * k);
      const i = (y * w + x) * 4;
      data.data[i] = data.data[i + 1] = data.data[i + 2] = Math.round(v * 255);
      data.data[i + 3] = 255;
    }
  ctx.putImageData(data, 0, 0);
  return canvas;
}

/**
 * The photo's albedo with the skin tone applied inside the mask (once, per pixel), and the means the
 * exposure needs (per channel, 0..1): the whole frame's albedo, the albedo weighted by the mask, and
 * both weighted by the screen's light on the head (`screenLightWeight`).
 */
function albedo(
  img: HTMLImageElement,
  cfg: SyntheticCameraConfig,
  face: SyntheticPatient['face'],
  ellipse: FaceEllipse,
  tone: Rgb,
) {
  const { canvas, ctx } = canvasOf(cfg.width, cfg.height);
  ctx.drawImage(img, 0, 0, cfg.width, cfg.height);
  const data = ctx.getImageData(0, 0, cfg.width, cfg.height);
  const px = data.data;
  const mean = [0, 0, 0];
  const masked = [0, 0, 0];
  const lit = [0, 0, 0];
  const maskedLit = [0, 0, 0];
  let weight = 0;
  const k = 640 / cfg.width;
  for (let y = 0; y < cfg.height; y++) {
    for (let x = 0; x < cfg.width; x++) {
      const i = (y * cfg.width + x) * 4;
      const m = maskAt(ellipse, x, y);
      const l = screenLightWeight(face, (x + 0.5) * k, (y + 0.5) * k);
      weight += m;
      for (let c = 0; c < 3; c++) {
        const v = Math.min(255, px[i + c]! * (1 + (tone[c]! - 1) * m));
        px[i + c] = v;
        mean[c]! += v / 255;
        masked[c]! += (v / 255) * m;
        lit[c]! += (v / 255) * l;
        maskedLit[c]! += (v / 255) * m * l;
      }
    }
  }
  ctx.putImageData(data, 0, 0);
  const n = cfg.width * cfg.height;
  const per = (v: number[]) => v.map((x) => x / n) as unknown as Rgb;
  return {
    canvas,
    mean: per(mean),
    masked: per(masked),
    lit: per(lit),
    maskedLit: per(maskedLit),
    /** The mask's mean weight (the face's share of the frame). */
    weight: weight / n,
  };
}

/**
 * Noise tiles for the 'overlay' draw: mid-grey plus a normal deviate per channel. Overlay moves a
 * pixel b by about 2 min(b, 1 - b) times the tile's deviation, so the tile's spread is the sensor
 * noise over 0.9 (a typical b of 0.45).
 */
function noiseTiles(sigma: number, r: () => number): HTMLCanvasElement[] {
  const tiles: HTMLCanvasElement[] = [];
  for (let k = 0; k < NOISE_TILES; k++) {
    const { canvas, ctx } = canvasOf(NOISE_TILE, NOISE_TILE);
    const data = ctx.createImageData(NOISE_TILE, NOISE_TILE);
    for (let i = 0; i < data.data.length; i += 4) {
      for (let c = 0; c < 3; c++) {
        const u = Math.max(1e-12, r());
        const g = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r());
        data.data[i + c] = Math.max(0, Math.min(255, 128 + (g * sigma) / 0.9));
      }
      data.data[i + 3] = 255;
    }
    ctx.putImageData(data, 0, 0);
    tiles.push(canvas);
  }
  return tiles;
}

export function installSyntheticCamera(cfg: SyntheticCameraConfig): void {
  const media = navigator.mediaDevices;
  if (!media?.getUserMedia) return;
  const original = media.getUserMedia.bind(media);

  const drawn = makeSyntheticPatient(cfg.seed, {
    face: cfg.face,
    ...(cfg.tone ? { tone: SKIN_TONES.find((t) => t.name === cfg.tone) } : {}),
    ...(cfg.lighting ? { lighting: LIGHTINGS.find((l) => l.name === cfg.lighting) } : {}),
    ...(cfg.screenBrightness !== undefined ? { screenBrightness: cfg.screenBrightness } : {}),
  });
  const patient: SyntheticPatient = { ...drawn, ...cfg.patient };
  // One stream of numbers per use, all from the seed: two seeds differ in everything.
  const r = {
    blinks: rng(cfg.seed * 7919 + 1),
    cues: rng(cfg.seed * 7919 + 2),
    jitter: rng(cfg.seed * 7919 + 3),
    noise: rng(cfg.seed * 7919 + 4),
  };
  const spontaneous = spontaneousBlinks(patient, 30 * 60_000, r.blinks);
  const state: SyntheticCameraState = {
    patient,
    cueBlinks: [],
    origin: null,
    frames: 0,
    drawMs: 0,
    exposureEv: 0,
    scale: patient.scale ?? 1,
    framingRead: [],
    showing: patient.face,
    swaps: [],
  };
  /** Where the phone is going (issue 41): the patient follows the oval's distance hints. */
  let distance: DistanceMove = distanceStart(patient);
  window.__syntheticCamera = state;
  const blinks = () => [...spontaneous, ...state.cueBlinks];
  const clock = () => (state.origin === null ? 0 : performance.now() - state.origin);

  // The page: the screen's colour (when the patient sees it) and the cues.
  const lights: Array<{ at: number; screen: Rgb }> = [{ at: -Infinity, screen: screenRgb(null) }];
  let lightValue: string | null = null;
  let cueElement: Element | null = null;
  let cueValue: string | null = null;
  let framingValue: string | null = null;
  const watchPage = () => {
    const framing =
      document.querySelector(`[${cfg.framingAttr}]`)?.getAttribute(cfg.framingAttr) ?? null;
    if (framing !== framingValue) {
      framingValue = framing;
      if (framing && state.origin !== null) state.framingRead.push(framing);
    }
    // Read while it shows (followFraming moves nothing while the phone moves or settles).
    if (framing && state.origin !== null)
      distance = followFraming(patient, distance, framing.split(' '), clock());
    const lit = document.querySelector(`[${cfg.lightAttr}]`)?.getAttribute(cfg.lightAttr) ?? null;
    if (lit !== lightValue) {
      lightValue = lit;
      const valid = lit && /^#[0-9a-f]{6}$/i.test(lit) ? lit : null;
      lights.push({ at: clock() + patient.displayLatencyMs, screen: screenRgb(valid) });
      if (lights.length > 64) lights.splice(1, lights.length - 64);
    }
    const cue = document.querySelector(`[${cfg.cueAttr}]`);
    const value = cue?.getAttribute(cfg.cueAttr) ?? null;
    if (cue && (cue !== cueElement || value !== cueValue)) {
      const answer = state.origin === null ? null : blinkOnCue(patient, clock(), r.cues, blinks());
      if (answer) state.cueBlinks.push(answer);
    }
    cueElement = cue;
    cueValue = value;
  };
  new MutationObserver(watchPage).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: [cfg.lightAttr, cfg.cueAttr, cfg.framingAttr],
  });
  const screenAt = (s: number): Rgb => {
    let screen = lights[0]!.screen;
    for (const l of lights) if (l.at <= s) screen = l.screen;
    return screen;
  };

  /** A fixture pair drawn and lit: its photos with the tone, its light weights, its means. */
  const loadFace = async (
    face: SyntheticPatient['face'],
    images: SyntheticCameraConfig['images'],
    ellipse: FaceEllipse,
  ) => {
    const [open, closed] = await Promise.all([loadImage(images.open), loadImage(images.closed)]);
    const a = albedo(open, cfg, face, ellipse, patient.tone.factor);
    const b = albedo(closed, cfg, face, ellipse, patient.tone.factor);
    return { ...a, open: a.canvas, closed: b.canvas, light: lightWeights(face, cfg) };
  };
  let ready: Promise<Awaited<ReturnType<typeof prepare>>> | null = null;
  async function prepare() {
    const [own, other] = await Promise.all([
      loadFace(patient.face, cfg.images, cfg.ellipse),
      cfg.other ? loadFace(cfg.other.face, cfg.other.images, cfg.other.ellipse) : null,
    ]);
    return {
      own,
      other,
      // Of the noise's variance, 64% is per pixel and 36% in blotches of NOISE_COARSE pixels.
      fine: noiseTiles(0.8 * patient.lighting.noise, r.noise),
      coarse: noiseTiles(0.6 * patient.lighting.noise, r.noise),
    };
  }

  /** The other face's turns (scene time) and its blinks. */
  const swaps: Array<{ from: number; until: number; blinks: Array<[number, number]> }> = [];
  window.__syntheticCameraControl = {
    showOther(ms, blinkAt = ms / 2, closedMs = 250) {
      if (!cfg.other) throw new Error('synthetic camera: no other face in its config');
      const from = clock();
      swaps.push({ from, until: from + ms, blinks: [[from + blinkAt, from + blinkAt + closedMs]] });
      state.swaps.push([from, from + ms]);
    },
  };
  const swapAt = (s: number) => swaps.find((w) => s >= w.from && s < w.until) ?? null;

  /**
   * The scene's light at scene time s with the phone at `scale`: on the background, and the face's
   * extra (per channel), both with the screen's light times scale^2 (`litAtScale`).
   */
  const lightAt = (s: number, scale: number) => {
    const screen = screenAt(s);
    const lit = litAtScale(patient, scale);
    const background = illumination(lit, screen, 0);
    const face = illumination(lit, screen, 1);
    return { background, extra: face.map((v, c) => v - background[c]!) as unknown as Rgb };
  };
  let camera: CameraState | null = null;

  async function syntheticStream(): Promise<MediaStream> {
    const assets = await (ready ??= prepare());
    if (state.origin === null) state.origin = performance.now();
    // A new track starts at the camera's default, as a phone's does when the page opens it again.
    state.exposureEv = 0;
    const { canvas, ctx } = canvasOf(cfg.width, cfg.height);
    const map = canvasOf(MAP_W, MAP_H);
    const sx = MAP_W / cfg.width;
    const sy = MAP_H / cfg.height;
    const patternsOf = (tiles: HTMLCanvasElement[]) =>
      tiles.map((tile) => ctx.createPattern(tile, 'repeat')!);
    const fine = patternsOf(assets.fine);
    const coarse = patternsOf(assets.coarse);
    const faceMetering = cfg.faceMetering ?? 0;
    let lastScene = clock() - patient.cameraLatencyMs;

    const draw = () => {
      const started = performance.now();
      const t = clock();
      const s = t - patient.cameraLatencyMs;
      const [hx, hy] = headAt(patient, s, r.jitter);
      // The face in front of the camera: the patient's, or the other one's during a swap (with its
      // own blinks only).
      const swap = assets.other ? swapAt(s) : null;
      const shown = swap ? assets.other! : assets.own;
      state.showing = swap ? cfg.other!.face : patient.face;
      const { mean, masked, lit, maskedLit, weight } = shown;
      // A blink shorter than the time since the last frame (a slow frame on a busy machine) still
      // shows closed in this one, as the exposure would have caught it; it is never lost.
      const all = swap ? swap.blinks : blinks();
      const missed = all.some(([from, until]) => from > lastScene && until <= s);
      const closed = missed ? 1 : eyesClosedAt(all, s);
      lastScene = s;
      const scale = scaleAt(distance, s);
      state.scale = scale;
      const light = lightAt(s, scale);
      // Exposure compensation as a phone's auto exposure takes it: the metered brightness is scaled
      // by 2^-EV, so the exposure aims at 2^EV of its target and gets there at its own pace (never
      // at once). All channels alike: the white balance does not move.
      const frame = [0, 1, 2].map(
        (c) => mean[c]! * light.background[c]! + lit[c]! * light.extra[c]!,
      );
      // Face-priority metering: the brightness metered is faceMetering the face's and the rest the
      // frame's; the white balance stays the whole frame's (as bench/_synthetic.ts does).
      const lum = (v: number[]) => (v[0]! + v[1]! + v[2]!) / 3;
      const face = [0, 1, 2].map(
        (c) =>
          (masked[c]! * light.background[c]! + maskedLit[c]! * light.extra[c]!) /
          Math.max(1e-6, weight),
      );
      const metered = faceMetering * lum(face) + (1 - faceMetering) * lum(frame);
      const metering = (metered / Math.max(1e-6, lum(frame))) * 2 ** -state.exposureEv;
      const radiance = frame.map((v) => v * metering) as unknown as Rgb;
      camera = camera ? cameraStep(camera, radiance, s) : cameraStart(radiance, s);
      const k0 = light.background.map((v, c) => v * camera!.gain[c]!);
      const k1 = light.extra.map((v, c) => v * camera!.gain[c]!);
      let k = Math.max(1, ...k0.map((v, c) => v + k1[c]!));

      // The photo, moved with the head (drawn 6% larger so a shift never shows an edge), as large
      // as the phone's distance makes it (issue 41): further away, smaller and nearer the centre,
      // on a wall of the photo's mean colour.
      ctx.globalCompositeOperation = 'source-over';
      ctx.globalAlpha = 1;
      const w = cfg.width * 1.06 * scale;
      const h = cfg.height * 1.06 * scale;
      const x0 = (cfg.width - w) / 2 + hx * scale;
      const y0 = (cfg.height - h) / 2 + hy * scale;
      if (scale < 1) {
        const wall = mean.map((v) => Math.round(Math.min(1, v) * 255));
        ctx.fillStyle = `rgb(${wall[0]},${wall[1]},${wall[2]})`;
        ctx.fillRect(0, 0, cfg.width, cfg.height);
      }
      ctx.drawImage(shown.open, x0, y0, w, h);
      if (closed > 0) {
        ctx.globalAlpha = closed;
        ctx.drawImage(shown.closed, x0, y0, w, h);
        ctx.globalAlpha = 1;
      }

      // The light: the head's light weights where the photo is (none on the wall around a smaller
      // photo) times the screen's extra light, plus the background's level everywhere.
      const byte = (v: number) => Math.round(Math.max(0, Math.min(1, v / k)) * 255);
      const rgb = (v: number[]) => `rgb(${byte(v[0]!)},${byte(v[1]!)},${byte(v[2]!)})`;
      const m = map.ctx;
      m.globalCompositeOperation = 'source-over';
      m.fillStyle = '#000';
      m.fillRect(0, 0, MAP_W, MAP_H);
      m.drawImage(shown.light, x0 * sx, y0 * sy, w * sx, h * sy);
      m.globalCompositeOperation = 'multiply';
      m.fillStyle = rgb(k1);
      m.fillRect(0, 0, MAP_W, MAP_H);
      m.globalCompositeOperation = 'lighter';
      m.fillStyle = rgb(k0);
      m.fillRect(0, 0, MAP_W, MAP_H);
      ctx.globalCompositeOperation = 'multiply';
      ctx.drawImage(map.canvas, 0, 0, cfg.width, cfg.height);
      // The exposure's gain above 1: add the frame to itself.
      ctx.globalCompositeOperation = 'lighter';
      while (k > 1.004) {
        const f = Math.min(2, k);
        ctx.globalAlpha = f - 1;
        ctx.drawImage(canvas, 0, 0);
        k /= f;
      }
      ctx.globalAlpha = 1;

      // Sensor noise: a fine tile and a coarse one (the blotches a phone's noise reduction leaves),
      // each one of the pre-made tiles at a random offset.
      ctx.globalCompositeOperation = 'overlay';
      for (const [set, scale] of [
        [fine, 1],
        [coarse, NOISE_COARSE],
      ] as const) {
        const pattern = set[Math.floor(r.noise() * set.length)]!;
        const span = NOISE_TILE * scale;
        pattern.setTransform(
          new DOMMatrix().translate(r.noise() * span, r.noise() * span).scale(scale),
        );
        ctx.fillStyle = pattern;
        ctx.fillRect(0, 0, cfg.width, cfg.height);
      }
      ctx.globalCompositeOperation = 'source-over';
      state.frames += 1;
      state.drawMs += performance.now() - started;
    };
    draw();

    const stream = canvas.captureStream(cfg.fps);
    const [track] = stream.getVideoTracks();
    const exposure = cfg.exposureCompensation !== false;
    if (track) {
      const settings = track.getSettings.bind(track);
      Object.defineProperty(track, 'label', { value: cfg.label });
      track.getSettings = () => ({
        ...settings(),
        width: cfg.width,
        height: cfg.height,
        frameRate: cfg.fps,
        facingMode: 'user',
        ...(exposure ? { exposureCompensation: state.exposureEv } : {}),
      });
      if (exposure) withExposureCompensation(track);
    }
    const timer = setInterval(() => {
      if (stream.getVideoTracks().every((tr) => tr.readyState === 'ended')) {
        clearInterval(timer);
        void window.__e2eLiveFace?.('release');
      } else draw();
    }, 1000 / cfg.fps);
    return stream;
  }

  /**
   * The track's capabilities and applyConstraints as Chrome on Android has them for exposure
   * compensation. The last value given wins (the top level, then each advanced set in order); the
   * other constraints go to the canvas track's own applyConstraints, and a refusal of theirs is not
   * passed on: the limits of the canvas track behind the camera must not show through to the app.
   */
  function withExposureCompensation(track: MediaStreamTrack) {
    const capabilities = track.getCapabilities?.bind(track);
    track.getCapabilities = () =>
      ({
        ...capabilities?.(),
        exposureCompensation: { ...EXPOSURE_COMPENSATION },
      }) as MediaTrackCapabilities;
    const apply = track.applyConstraints?.bind(track);
    track.applyConstraints = async (constraints?: MediaTrackConstraints) => {
      const { advanced, ...top } = constraints ?? {};
      const first = takeExposure(top);
      const sets = (advanced ?? []).map(takeExposure);
      const ev = [first, ...sets].reduce<number | undefined>((v, set) => set.ev ?? v, undefined);
      if (ev !== undefined) {
        const { min, max, step } = EXPOSURE_COMPENSATION;
        state.exposureEv = Math.max(min, Math.min(max, Math.round(ev / step) * step));
      }
      const rest = sets.map((set) => set.rest).filter((set) => Object.keys(set).length > 0);
      const others: MediaTrackConstraints = {
        ...first.rest,
        ...(rest.length ? { advanced: rest } : {}),
      };
      if (apply && Object.keys(others).length > 0) await apply(others).catch(() => undefined);
    };
  }

  media.getUserMedia = async (constraints?: MediaStreamConstraints) => {
    if (!constraints?.video || facingOf(constraints.video) === 'environment')
      return original(constraints);
    // The browser's own camera first, so a withheld permission or a missing camera fails as it
    // would; its stream is closed at once and the synthetic one answers.
    const real = await original({ audio: false, video: true });
    real.getTracks().forEach((tr) => tr.stop());
    // One live face at a time where the test runs one at a time (e2e/support/live-face.ts): the
    // camera opens once the lock is this page's.
    await window.__e2eLiveFace?.('acquire');
    return syntheticStream();
  };
}

/**
 * The synthetic patient of issue 31, as a model: who the patient is (face, skin tone), where they
 * stand (lighting), their phone (screen brightness, camera), and how they answer the challenge (blink
 * latency on cue, spontaneous blinks, sway). Pure: no DOM, no Node, no images, so the browser's
 * synthetic camera (e2e) and the Node renderer of the benches draw the same patient from the same
 * numbers. Renderers call `illumination` per pixel (or per layer) and `CameraState` per frame.
 *
 * Light model (linear, 0..1 per channel, no gamma): a pixel's radiance is its albedo (the fixture
 * photo's pixel, recoloured by the skin tone inside the face) times the light falling on it: the
 * ambient light (level x tint) plus the phone screen's light (its colour x brightness x a gain that is
 * strongest on the face, 30 cm from the screen, and about a tenth of it on the background, a metre
 * or more away). The camera then applies auto-exposure and auto white balance, both slow (they adapt
 * over hundreds of ms and so weaken a colour change a little), sensor noise and JPEG.
 */

/** Deterministic pseudo-random numbers in [0, 1) (xorshift32). */
export function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x100000000;
  };
}

export type Rgb = [number, number, number];

/** Where the patient stands. `screenGain`: the screen's light on the face relative to this ambient. */
export type Lighting = {
  name: 'dim' | 'window' | 'outdoor-bright' | 'outdoor-shade';
  /** Ambient level (window light = 1). */
  level: number;
  tint: Rgb;
  /** Sensor noise, grey levels (standard deviation), after exposure. */
  noise: number;
};

export const LIGHTINGS: readonly Lighting[] = [
  // An evening room lit by one warm bulb: the screen is a large part of the light, noise is high.
  { name: 'dim', level: 0.35, tint: [1, 0.86, 0.68], noise: 6 },
  // Beside a window in daytime.
  { name: 'window', level: 1, tint: [0.96, 1, 1.04], noise: 3.5 },
  // Outdoors in sunlight: the screen's light is a few percent of the light on the face.
  { name: 'outdoor-bright', level: 6, tint: [1, 0.98, 0.94], noise: 2.5 },
];

/**
 * Outdoors in the shade (issue 41's 'sombra'): open sky, bluish, about two and a half times a
 * window's light, so the screen's light on the face is about a tenth of it. Not drawn by
 * `makeSyntheticPatient` (the e2e patients keep their lightings); the benches add it.
 */
export const OUTDOOR_SHADE: Lighting = {
  name: 'outdoor-shade',
  level: 2.5,
  tint: [0.92, 0.98, 1.1],
  noise: 3,
};

/** Every lighting a bench runs: indoors (dim, window), outdoors in the sun and in the shade. */
export const BENCH_LIGHTINGS: readonly Lighting[] = [...LIGHTINGS, OUTDOOR_SHADE];

/** Skin tones as multipliers of the fixture face's own colour (roughly Fitzpatrick II to VI). */
export const SKIN_TONES: readonly { name: string; factor: Rgb }[] = [
  { name: 'II', factor: [1.08, 1.04, 1.02] },
  { name: 'III', factor: [0.95, 0.88, 0.8] },
  { name: 'IV', factor: [0.8, 0.68, 0.56] },
  { name: 'V', factor: [0.6, 0.47, 0.37] },
  { name: 'VI', factor: [0.42, 0.32, 0.25] },
];

/** The screen's light on the face, relative to window-light ambient, at full brightness. */
export const SCREEN_FACE_GAIN = 0.3;
/** The same on the background (further from the screen). */
export const SCREEN_BACKGROUND_GAIN = 0.03;

/**
 * The blink pairs of tests/fixtures/faces (tests/fixtures/make-blink.ts): 'blink', the face the
 * thresholds were tuned on; 'blink-b' (person-18), held out; 'blink-c'..'blink-h' (person-06, -07,
 * -13, -17, -19, -20: issue 41 item 6), held out too, for the benches only.
 */
export const BLINK_FACES = [
  'blink',
  'blink-b',
  'blink-c',
  'blink-d',
  'blink-e',
  'blink-f',
  'blink-g',
  'blink-h',
] as const;
export type BlinkFace = (typeof BLINK_FACES)[number];
/** The face the thresholds were tuned on. */
export const TUNED_FACE: BlinkFace = 'blink';
/** Every face the thresholds were not tuned on. */
export const HELD_OUT_FACES: readonly BlinkFace[] = BLINK_FACES.filter((f) => f !== TUNED_FACE);
/**
 * The faces the e2e synthetic camera draws (e2e/support/synthetic-camera.ts keeps a record of each):
 * a patient's face is one of these unless a bench asks for another (`SyntheticPatient<BlinkFace>`).
 */
export type E2eFace = 'blink' | 'blink-b';

export type SyntheticPatient<Face extends BlinkFace = E2eFace> = {
  seed: number;
  /** The blink pair of tests/fixtures/faces: 'blink' or 'blink-b' (the benches: any of BLINK_FACES). */
  face: Face;
  tone: (typeof SKIN_TONES)[number];
  lighting: Lighting;
  /** The phone's screen brightness, 0..1. */
  screenBrightness: number;
  /** Median latency of a blink after the cue shows (ms), and its spread (log-normal sigma). */
  blinkLatencyMs: number;
  latencySigma: number;
  /** Chance of not seeing a cue at all (looking away). */
  missCue: number;
  /** Spontaneous blinks per minute. */
  spontaneousPerMinute: number;
  /** Closed phase of a blink, ms. */
  closedMs: [number, number];
  /** Where the head sits in the oval (px of a 640x480 capture) and how it sways. */
  offset: [number, number];
  swayPx: number;
  jitterPx: number;
  /** Camera pipeline: the scene a frame shows is this old when the frame is captured (ms). */
  cameraLatencyMs: number;
  /** The screen shows a change this long after the page asked for it (ms). */
  displayLatencyMs: number;
  /**
   * How far the patient holds the phone (issue 41): the face's size in the picture relative to the
   * fixture photo's own framing (1, the default: the face about 0.55-0.65 of the oval's width;
   * 0.5: twice as far, 'Acercá el celular'). The patient follows the oval's distance hints
   * (`followFraming`).
   */
  scale?: number | undefined;
  /** Reading a distance hint to the start of the move (ms; default HINT_LATENCY_MS). */
  hintLatencyMs?: number | undefined;
  /** How long the move to the new distance takes (ms; default MOVE_MS). */
  moveMs?: number | undefined;
};

/** A patient of any face (the benches'). */
export type AnySyntheticPatient = SyntheticPatient<BlinkFace>;

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/**
 * Patient `seed`: its face, tone, lighting and phone drawn from the seed unless given. Voluntary blinks
 * to a visual cue come 250-600 ms after it (median about 380 ms; reaction time plus the lid's closing).
 */
export function makeSyntheticPatient<Face extends BlinkFace = E2eFace>(
  seed: number,
  given: Partial<
    Pick<SyntheticPatient<Face>, 'face' | 'tone' | 'lighting' | 'screenBrightness'>
  > = {},
): SyntheticPatient<Face> {
  const r = rng(seed * 2_654_435 + 11);
  const between = (a: number, b: number) => a + (b - a) * r();
  return {
    seed,
    // Without a given face, only the e2e camera's two.
    face: given.face ?? ((r() < 0.5 ? 'blink' : 'blink-b') as Face),
    tone: given.tone ?? pick(r, SKIN_TONES),
    lighting: given.lighting ?? pick(r, LIGHTINGS),
    screenBrightness: given.screenBrightness ?? between(0.4, 1),
    blinkLatencyMs: between(300, 450),
    latencySigma: 0.22,
    missCue: 0.03,
    spontaneousPerMinute: between(8, 20),
    closedMs: [100, 250],
    offset: [between(-12, 12), between(-10, 10)],
    swayPx: 2,
    jitterPx: between(1, 2),
    cameraLatencyMs: between(50, 130),
    displayLatencyMs: between(16, 50),
  };
}

/** A normal deviate from two uniforms (Box-Muller). */
export function gaussian(r: () => number): number {
  const u = Math.max(1e-12, r());
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r());
}

/**
 * Eyes that just opened close again on request only after this long (ms): two blinks never run into
 * one (a spontaneous blink as the cue shows is followed by the one asked for, as a person does).
 */
export const BLINK_REFRACTORY_MS = 200;

/**
 * The patient's answer to a cue shown at `shownAt` (ms): the closed phase [start, end), or null when
 * the patient did not see it. `r` draws the chance (give each cue its own stream). A blink already
 * under way then (`others`: the patient's other blinks) delays the answer until after it.
 */
export function blinkOnCue(
  p: AnySyntheticPatient,
  shownAt: number,
  r: () => number,
  others: ReadonlyArray<[number, number]> = [],
): [number, number] | null {
  if (r() < p.missCue) return null;
  const latency = Math.max(
    180,
    Math.min(900, p.blinkLatencyMs * Math.exp(p.latencySigma * gaussian(r))),
  );
  const closed = p.closedMs[0] + (p.closedMs[1] - p.closedMs[0]) * r();
  let start = shownAt + p.displayLatencyMs + latency;
  for (let moved = true; moved;) {
    moved = false;
    for (const [s, e] of others)
      if (s < start + closed + BLINK_REFRACTORY_MS && e + BLINK_REFRACTORY_MS > start) {
        start = e + BLINK_REFRACTORY_MS;
        moved = true;
      }
  }
  return [start, start + closed];
}

/** Spontaneous blinks over [0, durationMs): a Poisson process at the patient's rate. */
export function spontaneousBlinks(
  p: AnySyntheticPatient,
  durationMs: number,
  r: () => number,
): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const mean = 60_000 / p.spontaneousPerMinute;
  let t = -Math.log(Math.max(1e-9, r())) * mean;
  while (t < durationMs) {
    const closed = p.closedMs[0] + (p.closedMs[1] - p.closedMs[0]) * r();
    out.push([t, t + closed]);
    t += closed - Math.log(Math.max(1e-9, r())) * mean;
  }
  return out;
}

/** How closed the eyes are at `t` given the closed phases: 1 closed, 0.5 lids moving (35 ms either side), 0 open. */
export function eyesClosedAt(blinks: ReadonlyArray<[number, number]>, t: number): number {
  for (const [s, e] of blinks) {
    if (t >= s && t < e) return 1;
    if (t >= s - 35 && t < e + 35) return 0.5;
  }
  return 0;
}

/** Where the head is at `t` (px of a 640x480 capture): the patient's place, a slow sway, and a jitter per frame. */
export function headAt(p: AnySyntheticPatient, t: number, r: () => number): [number, number] {
  return [
    p.offset[0] + p.swayPx * Math.sin(t / 1300 + p.seed) + (r() * 2 - 1) * p.jitterPx,
    p.offset[1] + p.swayPx * 0.75 * Math.sin(t / 1900 + 2 * p.seed) + (r() * 2 - 1) * p.jitterPx,
  ];
}

/** '#rrggbb' to 0..1 channels; null/undefined is a dark screen around the oval (no light asked). */
export function screenRgb(colour: string | null | undefined): Rgb {
  if (!colour) return [0.92, 0.92, 0.92]; // the page's own light background
  const n = parseInt(colour.slice(1), 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}

/**
 * The light falling on a point (0..~6 per channel): ambient plus the screen's, `faceWeight` 1 on the
 * face, 0 on the far background (a renderer blends with a soft face mask).
 */
export function illumination(p: AnySyntheticPatient, screen: Rgb, faceWeight: number): Rgb {
  const gain =
    (SCREEN_BACKGROUND_GAIN + (SCREEN_FACE_GAIN - SCREEN_BACKGROUND_GAIN) * faceWeight) *
    p.screenBrightness;
  const { level, tint } = p.lighting;
  return [
    level * tint[0] + gain * screen[0],
    level * tint[1] + gain * screen[1],
    level * tint[2] + gain * screen[2],
  ];
}

/** An ellipse in a fixture photo's pixels (640x480). */
export type Ellipse = { cx: number; cy: number; rx: number; ry: number };

/**
 * The face (skin, brow to chin) of each fixture pair: an ellipse in its 640x480 pixels. 'blink' and
 * 'blink-b' measured by hand; 'blink-c'..'blink-h' from the face mesh (what make-blink.ts prints
 * when it makes them, and `--measure NAME` again): centred on the mesh's extent on the open frame,
 * its half width and height times blink's own hand ellipse over its mesh's (108/117, 132/137).
 * tests/synthetic/faces.test.ts checks them against the mesh.
 */
export const FACE_ELLIPSES: Record<BlinkFace, Ellipse> = {
  blink: { cx: 322, cy: 308, rx: 108, ry: 132 },
  'blink-b': { cx: 330, cy: 290, rx: 112, ry: 138 },
  'blink-c': { cx: 326, cy: 306, rx: 133, ry: 160 },
  'blink-d': { cx: 327, cy: 303, rx: 128, ry: 149 },
  'blink-e': { cx: 326, cy: 307, rx: 132, ry: 164 },
  'blink-f': { cx: 318, cy: 308, rx: 137, ry: 163 },
  'blink-g': { cx: 325, cy: 312, rx: 132, ry: 162 },
  'blink-h': { cx: 326, cy: 304, rx: 127, ry: 143 },
};
/**
 * The head (face, hair, ears, neck: about as far from the screen as the face, so lit as much) of each
 * fixture pair, an ellipse in its pixels; the rest of the picture is the background, a metre or more
 * away. 'blink-c'..'blink-h': around the face's ellipse in blink's proportions (rx 185/108 and ry
 * 205/132 of the face's, centred 68/132 of the face's ry above it), as make-blink.ts prints them.
 */
export const HEAD_ELLIPSES: Record<BlinkFace, Ellipse> = {
  blink: { cx: 330, cy: 240, rx: 185, ry: 205 },
  'blink-b': { cx: 325, cy: 275, rx: 235, ry: 290 },
  'blink-c': { cx: 326, cy: 224, rx: 228, ry: 248 },
  'blink-d': { cx: 327, cy: 226, rx: 219, ry: 232 },
  'blink-e': { cx: 326, cy: 222, rx: 226, ry: 255 },
  'blink-f': { cx: 318, cy: 224, rx: 234, ry: 253 },
  'blink-g': { cx: 325, cy: 228, rx: 226, ry: 252 },
  'blink-h': { cx: 326, cy: 230, rx: 217, ry: 222 },
};

/** The normalised distance of (x, y) from an ellipse's centre (1 on its outline). */
export const ellipseDistance = (e: Ellipse, x: number, y: number) =>
  Math.hypot((x - e.cx) / e.rx, (y - e.cy) / e.ry);

/** 1 inside `inner` of the ellipse's radius, 0 beyond `outer`, smooth between. */
export function softEllipse(d: number, inner = 0.85, outer = 1.15): number {
  if (d <= inner) return 1;
  if (d >= outer) return 0;
  const x = (outer - d) / (outer - inner);
  return x * x * (3 - 2 * x);
}

/**
 * The face's shape under the phone's light (issue 41): the screen sits beside the camera, so the
 * light it casts on a point of the face goes with the cosine between the surface and the camera's
 * axis (Lambert): full on the nose and the inner cheeks, falling towards the face's outline, where
 * the cheeks turn away. Modelled on the face's ellipse as a half-ellipsoid (the cosine is
 * sqrt(1 - d^2) at normalised distance d from its centre), at least SHADE_FLOOR at its outline; the
 * rest of the head (hair, ears, neck: set back and turned away) takes HAIR_SHADE. The ambient light
 * is taken as diffuse (a room, the sky), the same on every part: the model's assumption, and where
 * it is wrong (a lamp right behind the phone lights the face with the same fall-off as the screen)
 * the face's shading in the screen's colours is weaker than here. A face on a screen or on paper is
 * flat: the same light everywhere. Both renderers (bench/_synthetic.ts, the e2e camera
 * e2e/support/synthetic-camera.browser.ts) light the head so.
 */
export const SHADE_FLOOR = 0.3;
export const HAIR_SHADE = 0.7;

/**
 * The screen's light on a point of the head as a share of the face's centre's (its cosine to the
 * camera's axis): `d` the point's normalised distance from the face ellipse's centre, `inFace` how
 * much it is the face (a soft mask), the rest being hair, ears or neck.
 */
export function screenShade(d: number, inFace: number): number {
  const cosine = Math.max(SHADE_FLOOR, Math.sqrt(Math.max(0, 1 - d * d)));
  return inFace * cosine + (1 - inFace) * HAIR_SHADE;
}

/**
 * How much of the screen's light on the face (illumination's `faceWeight`) falls on pixel (x, y) of
 * a fixture photo of a real face: the head's soft mask (the background beyond it, 0) times the
 * head's shading (`screenShade` on the face's soft mask).
 */
export function screenLightWeight(face: BlinkFace, x: number, y: number): number {
  const d = ellipseDistance(FACE_ELLIPSES[face], x, y);
  const near = softEllipse(ellipseDistance(HEAD_ELLIPSES[face], x, y), 0.95, 1.05);
  return near * screenShade(d, softEllipse(d));
}

/**
 * The patient holding the phone at `scale` (the face's size in the picture, 1 the usual framing):
 * the face is that much closer to the screen, whose light on it goes with the inverse square of the
 * distance, so with scale^2 (the light on the background too: the renderers scale the whole
 * screen's share).
 */
export const litAtScale = <P extends AnySyntheticPatient>(p: P, scale: number): P => ({
  ...p,
  screenBrightness: p.screenBrightness * scale * scale,
});

/**
 * The camera's slow automatic exposure and white balance: a gain per channel that brings the frame's
 * mean towards mid-grey with a time constant, so a sudden colour change is seen almost whole at first
 * and then slowly taken back (as phone cameras do).
 */
export type CameraState = { gain: Rgb; at: number };

export const EXPOSURE_TAU_MS = 450;
export const WHITE_BALANCE_TAU_MS = 900;

/** A new camera state: the gains that suit `mean` (the frame's mean radiance per channel) at once. */
export function cameraStart(mean: Rgb, at: number): CameraState {
  const lum = (mean[0] + mean[1] + mean[2]) / 3;
  const exposure = 0.45 / Math.max(1e-3, lum);
  return { gain: mean.map((m) => (exposure * lum) / Math.max(1e-3, m)) as unknown as Rgb, at };
}

/** The camera's gains at `at`, having seen a frame of mean radiance `mean` (per channel). */
export function cameraStep(state: CameraState, mean: Rgb, at: number): CameraState {
  const dt = Math.max(0, at - state.at);
  const lum = (mean[0] + mean[1] + mean[2]) / 3;
  const exposure = 0.45 / Math.max(1e-3, lum);
  const kE = 1 - Math.exp(-dt / EXPOSURE_TAU_MS);
  const kW = 1 - Math.exp(-dt / WHITE_BALANCE_TAU_MS);
  const gain = state.gain.map((g, c) => {
    const target = (exposure * lum) / Math.max(1e-3, mean[c]!);
    // Exposure (the grey part of the gain) adapts faster than the balance between channels.
    const k = (kE + kW) / 2;
    return g + (target - g) * k;
  }) as unknown as Rgb;
  return { gain, at };
}

/** A distance hint read (ms) before the patient moves the phone: reading time and a reaction. */
export const HINT_LATENCY_MS = 700;
/** Bringing the phone closer or further takes this long (ms). */
export const MOVE_MS = 900;
/** What 'Alejá un poco el celular' does to the face's size in the picture. */
export const BACK_OFF = 0.8;
/**
 * After a move, a hint is read as the phone's new place only this long after it ended: the answers
 * still say what the frames before it showed (a poll every 700 ms, the network and the engine).
 */
export const SETTLE_MS = 1_500;

/**
 * The phone's distance over time (issue 41): the face's scale moves from `from` (until `at`) to `to`
 * (from `at + ms` on), eased. A patient who never read a hint holds still at `patient.scale`.
 */
export type DistanceMove = { from: number; to: number; at: number; ms: number };

export const distanceStart = (p: AnySyntheticPatient): DistanceMove => {
  const scale = p.scale ?? 1;
  return { from: scale, to: scale, at: 0, ms: 0 };
};

/** The face's scale at `t`. */
export function scaleAt(m: DistanceMove, t: number): number {
  if (t <= m.at) return m.from;
  if (t >= m.at + m.ms) return m.to;
  const k = (t - m.at) / m.ms;
  return m.from + (m.to - m.from) * k * k * (3 - 2 * k);
}

/**
 * The patient reads the oval's framing hint at `t` (the codes of contract/identity.ts
 * LIVENESS_FRAMING on the page's `data-liveness-framing`) and follows it: 'too_far' brings the
 * phone to the usual framing (scale 1) if further, and a step closer (1 / BACK_OFF) from there while
 * the oval still says it once the phone settled (SETTLE_MS: a face small in its photo is still too
 * small at the usual framing, and a patient comes closer until the hint goes, issue 41 item 2);
 * 'too_close' takes it back by BACK_OFF. The move starts after the patient's reading time, from
 * where the phone is when the hint shows. The hint is read again and again while it shows; one read
 * during a move or within SETTLE_MS after it moves nothing. Any other hint (or none) leaves the
 * phone where it goes.
 */
export function followFraming(
  p: AnySyntheticPatient,
  m: DistanceMove,
  codes: readonly string[],
  t: number,
): DistanceMove {
  const now = scaleAt(m, t);
  // A hint read while the phone moves, or just after, is the frames' before the move.
  if (m.to !== m.from && t < m.at + m.ms + SETTLE_MS) return m;
  const to = codes.includes('too_close')
    ? now * BACK_OFF
    : codes.includes('too_far')
      ? Math.max(1, now / BACK_OFF)
      : null;
  if (to === null) return m;
  return { from: now, to, at: t + (p.hintLatencyMs ?? HINT_LATENCY_MS), ms: p.moveMs ?? MOVE_MS };
}

/**
 * Simulated selfie patients for the liveness benches (not a bench itself): a 30 fps camera in front of
 * a patient who blinks (closed phase 100-250 ms, blinks 1.5-4 s apart, random), frames made from the
 * engine's blink fixtures (tests/identity/frames.ts: the oval's region, hand-held jitter, sensor
 * noise, JPEG), captured and grouped into requests by the browser's own frame policy
 * (contract/frame-policy.ts), exactly as the capture actor does.
 */
import sharp from 'sharp';
import { bufferFrame, type FramePolicy, type SampledFrame } from '../contract/frame-policy';
import { rng } from '../tests/fixtures/cedula';
import { OVAL, ovalFrame } from '../tests/identity/frames';

const CAMERA_FRAME_MS = 1000 / 30;

export type Patient = {
  seed: number;
  /** [start, end) of each closed phase, ms from the start of the challenge. */
  blinks: Array<[number, number]>;
  offset: [number, number];
  brightness: number;
  /** A photo held to the camera: never blinks. */
  still: boolean;
  /** How the camera films: see `Camera`. */
  camera: Camera;
};

/**
 * 'bench': the benches' first camera (noise 3 per channel at the frame's own 160 px, one JPEG at the
 * policy's quality, an independent jitter per frame of up to 2 px of the 640x480 capture with a degree
 * of rotation and 1.5% zoom). 'real': at least as costly as real footage of a hand-held phone (issue
 * 31's 'cost' figure): in pixels of the frame the server receives, a sway of +-2 px and a tremor that
 * moves the head 1-2 px per frame (a wandering walk: `realHead`), sensor noise of 3.5 grey levels,
 * the camera's JPEG 0.7, then the browser's JPEG at the policy's quality. (The same figures in pixels of the 640x480 capture, scaled down to 160 px, average the
 * noise and the jitter away: consecutive frames then differ less than the bench camera's, even as
 * little as a re-encode.)
 */
export type Camera = 'bench' | 'real';
/** The 'real' camera's figures (px of the frame sent, grey levels, JPEG quality 0-100). */
export const REAL_CAMERA = { swayPx: 2, jitterPx: [1, 2], noise: 3.5, quality: 70 } as const;

export function makePatient(
  seed: number,
  durationMs: number,
  still = false,
  camera: Camera = 'bench',
): Patient {
  const r = rng(seed * 104_729 + 7);
  const between = (a: number, b: number) => a + (b - a) * r();
  const blinks: Array<[number, number]> = [];
  let t = between(1500, 4000);
  while (!still && t < durationMs) {
    const closed = between(100, 250);
    blinks.push([t, t + closed]);
    t += between(1500, 4000);
  }
  return {
    seed,
    blinks,
    offset: [between(-10, 10), between(-8, 8)],
    brightness: between(0.85, 1.15),
    still,
    camera,
  };
}

/** How closed the eyes are in the camera frame shown at `t`: 1 in the closed phase, 0.5 in the camera frame either side (lids moving). */
export function eyesAt(p: Patient, t: number): number {
  for (const [s, e] of p.blinks) {
    if (t >= s && t < e) return 1;
    if (t >= s - CAMERA_FRAME_MS && t < e + CAMERA_FRAME_MS) return 0.5;
  }
  return 0;
}

/** The camera frame on screen at `t` (30 fps), as the capture actor grabs it. */
export function capture(p: Patient, t: number, policy: FramePolicy): Promise<Buffer> {
  const frame = Math.floor(t / CAMERA_FRAME_MS);
  const shown = frame * CAMERA_FRAME_MS;
  if (p.camera === 'real') return realCapture(p, frame, policy);
  // A slow sway of the head on top of each frame's jitter.
  const sway: [number, number] = [
    p.offset[0] + 2 * Math.sin(shown / 1500 + p.seed),
    p.offset[1] + 1.5 * Math.sin(shown / 2100 + p.seed),
  ];
  return ovalFrame({
    seed: p.seed * 100_000 + frame,
    closed: eyesAt(p, shown),
    width: policy.maxWidth,
    quality: Math.round(policy.quality * 100),
    offset: sway,
    brightness: p.brightness,
  });
}

/** The hand's tremor moves the head this often (a step of REAL_CAMERA.jitterPx each time). */
const JITTER_EVERY_MS = 125;
/** How much of its offset the tremor keeps from one step to the next (it wanders, but comes back). */
const JITTER_KEEP = 0.85;
/**
 * Where the head is in camera frame `frame` of a 'real' camera (px of the frame sent): a slow sway of
 * +-swayPx and a tremor that moves it 1-2 px in a random direction every 125 ms (a random walk drawn
 * back towards the place: about 3 px from it at any time), so that a frame and an earlier one a few
 * captures back are a few pixels apart, as in hand-held footage.
 */
export function realHead(p: Patient, frame: number): [number, number] {
  const t = frame * CAMERA_FRAME_MS;
  const r = rng(p.seed * 7_368_787 + 5);
  const [j0, j1] = REAL_CAMERA.jitterPx;
  let x = 0;
  let y = 0;
  for (let n = 0; n <= Math.floor(t / JITTER_EVERY_MS); n++) {
    const angle = r() * 2 * Math.PI;
    const step = j0 + (j1 - j0) * r();
    x = x * JITTER_KEEP + step * Math.cos(angle);
    y = y * JITTER_KEEP + step * Math.sin(angle);
  }
  const sway = REAL_CAMERA.swayPx;
  return [
    sway * Math.sin(t / 1300 + p.seed) + x,
    sway * 0.75 * Math.sin(t / 1900 + 2 * p.seed) + y,
  ];
}

/**
 * A 'real' camera's frame `frame` (30 fps) of `region` (640x480 capture pixels; the oval's by
 * default) drawn `width` px wide: the head where `realHead` puts it (scaled to capture pixels),
 * grey noise, the camera's JPEG 0.7 (no other jitter: the head's is all of it).
 */
export function realCameraFrame(
  p: Patient,
  frame: number,
  closed: number,
  width: number,
  region?: { left: number; top: number; width: number; height: number },
): Promise<Buffer> {
  const k = (region ?? OVAL).width / width;
  const [dx, dy] = realHead(p, frame);
  return ovalFrame({
    seed: p.seed * 100_000 + frame,
    closed,
    width,
    quality: REAL_CAMERA.quality,
    offset: [p.offset[0] + dx * k, p.offset[1] + dy * k],
    brightness: p.brightness,
    noise: REAL_CAMERA.noise,
    greyNoise: true,
    still: true,
    ...(region ? { region } : {}),
  });
}

/** A 'real' camera's frame as the browser sends it: the camera's JPEG, encoded again at the policy's quality. */
export async function realCapture(
  p: Patient,
  frame: number,
  policy: FramePolicy,
  closed = eyesAt(p, frame * CAMERA_FRAME_MS),
): Promise<Buffer> {
  const camera = await realCameraFrame(p, frame, closed, policy.maxWidth);
  return sharp(camera)
    .jpeg({ quality: Math.round(policy.quality * 100) })
    .toBuffer();
}

export type Request = { sentAt: number; frames: Buffer[] };
export type ClientResult = {
  /** When the answer that said live arrived (ms from the start), or null. */
  passedAt: number | null;
  requests: Request[];
  latencies: number[];
};

/**
 * The browser's side in simulated time: a capture every `captureEveryMs` into the policy's buffer; a
 * poll every `pollEveryMs` sends `select(buffer)` and empties it, one request in flight (the next poll
 * waits for the answer). `send` is the server (its real time is the request's latency here).
 */
export async function runClient(
  policy: FramePolicy,
  frameAt: (t: number) => Promise<Buffer>,
  send: (frames: Buffer[]) => Promise<boolean>,
  untilMs: number,
  /**
   * The answer's delay in simulated time; by default the request's real latency. A fixed delay
   * keeps the decision independent of how loaded the machine running the bench is (the sustained
   * bench measures how many sessions keep answers this fast).
   */
  latencyMs?: number,
): Promise<ClientResult> {
  let buffer: SampledFrame<Buffer>[] = [];
  let nextCapture = 0;
  let poll = policy.pollEveryMs;
  const requests: Request[] = [];
  const latencies: number[] = [];
  while (poll <= untilMs) {
    for (; nextCapture <= poll; nextCapture += policy.captureEveryMs)
      buffer = bufferFrame(policy, buffer, {
        capturedAt: nextCapture,
        data: await frameAt(nextCapture),
      });
    const frames = policy.select(buffer).map((f) => f.data);
    buffer = [];
    const t0 = performance.now();
    const live = await send(frames);
    const latency = performance.now() - t0;
    latencies.push(latency);
    requests.push({ sentAt: poll, frames });
    const answeredAt = poll + (latencyMs ?? latency);
    if (live) return { passedAt: answeredAt, requests, latencies };
    poll = Math.max(poll + policy.pollEveryMs, answeredAt);
  }
  return { passedAt: null, requests, latencies };
}

/** Bytes of one multipart request as the browser sends it (session_id + repeated `frame` parts). */
export function requestBytes(frames: Buffer[]): number {
  const boundary = 42; // '------WebKitFormBoundary' + 16 characters, and CRLFs
  const session = boundary + 2 + 45 + 4 + 36 + 2;
  const part = boundary + 2 + 62 + 2 + 26 + 4 + 2;
  return session + frames.reduce((n, f) => n + part + f.length, 0) + boundary + 4;
}

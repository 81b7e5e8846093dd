/**
 * Simulated selfie patients for the liveness benches (not a bench itself): a 30 fps camera in front of
 * a patient who blinks (closed phase 100-250 ms, blinks 1.5-4 s apart, random), frames made from the
 * engine's blink fixtures (tests/identity/frames.ts: the oval's region, hand-held jitter, sensor
 * noise, JPEG), captured and grouped into requests by the browser's own frame policy
 * (contract/frame-policy.ts), exactly as the capture actor does.
 */
import { bufferFrame, type FramePolicy, type SampledFrame } from '../contract/frame-policy';
import { rng } from '../tests/fixtures/cedula';
import { ovalFrame } from '../tests/identity/frames';

const CAMERA_FRAME_MS = 1000 / 30;

export type Patient = {
  seed: number;
  /** [start, end) of each closed phase, ms from the start of the challenge. */
  blinks: Array<[number, number]>;
  offset: [number, number];
  brightness: number;
  /** A photo held to the camera: never blinks. */
  still: boolean;
};

export function makePatient(seed: number, durationMs: number, still = false): Patient {
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

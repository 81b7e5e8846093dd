import type { EngineDecision, EngineReason } from '../../contract/insight';

/** One face found in an image, as the worker reports it (plain data: crosses thread boundaries). */
export type FaceObservation = {
  /**
   * [x, y, width, height] in pixels of the analysed (oriented, possibly downscaled) image: Human's
   * box, 1.5-1.8 times the face's own width and clipped to the image (gates.ts has the figures).
   */
  box: [number, number, number, number];
  /**
   * The face itself: [x, y, width, height] of its mesh landmarks (cheek to cheek, chin to forehead),
   * not clipped, so a landmark past an edge of the image means the face is cut there. Absent from
   * observations made without the mesh.
   */
  extent?: [number, number, number, number] | undefined;
  score: number;
  /** Eye aspect ratios from the 478-point mesh refined by the iris model. */
  ear: { left: number; right: number; mean: number };
  /** Mean luma of the face box (0-255). */
  luminance: number;
  /** 1024-d face description, when asked for. */
  embedding?: number[] | undefined;
};

export type FrameAnalysis = {
  width: number;
  height: number;
  /** Mean luma of the whole frame (0-255). */
  luminance: number;
  faces: FaceObservation[];
  /** Perceptual fingerprint: base64 grey thumbnail and 64-bit dHash (decimal string). */
  fingerprint?: { thumb: string; dhash: string } | undefined;
  timings: { decodeMs: number; detectMs: number };
  /**
   * Set when the frame was not analysed because its eyes did not change since frame `of` of the same
   * request (`change` is the eye-region difference): it brings nothing new to the blink decision.
   */
  skipped?: { of: number; change: number } | undefined;
  /**
   * The colour statistic of the frame (liveness frames, issue 31: worker/colour.ts), skipped frames
   * included: the screen's light is judged on it.
   */
  colour?: FrameColour | undefined;
};

/** Mean R, G, B (0-255) of the face's centre and of the background (the top corners outside the face). */
export type FrameColour = {
  face: [number, number, number] | null;
  background: [number, number, number] | null;
  /**
   * The background's parts apart (top-left, top-right, left edge, right edge, outside the face box):
   * long hair is lit like the face, a wall a metre away is not; a face on a screen changes everywhere
   * alike. Null where a part has too few pixels.
   */
  patches?: Array<BackgroundPart | null> | undefined;
  /**
   * The face's shape under the screen's light (issue 41), where the face's own extent (its mesh) is
   * known: the mean R, G, B of its core (nose and inner cheeks, facing the screen) and of its rim
   * (the outer cheeks, turning away). Null where too few pixels.
   */
  core?: [number, number, number] | null | undefined;
  rim?: [number, number, number] | null | undefined;
};

/** A part of the background in one frame: the mean R, G, B of all its pixels, and the fraction clipped (worker/colour.ts). */
export type BackgroundPart = { rgb: [number, number, number]; clipped: number };

/** Cosine similarity of two embeddings (Human's descriptions are not unit length). */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * Where the engine reports its decisions for journey insight (issue 17): the app that owns the engine
 * gives it (server/insight/engine-recorder.ts `createEngineRecorder`, wired in server/app.ts); the
 * engine calls it where it decides, with the decision's reason code, and never waits or fails for
 * it. Without one (CLI commands, benches, tests that do not look) decisions are dropped.
 */
export type EngineInsight = {
  record(decision: EngineDecision): void;
  /** One liveness request's outcome: refused (the frame cap), passed, time up, replays, failed gates. */
  liveness(outcome: {
    decider: string;
    state: unknown;
    now: number;
    live: boolean;
    timeUp: boolean;
    steps?: Array<Record<string, unknown>>;
    refused?: EngineReason;
    /** Challenge signals the session raised for the first time in this request (issue 31). */
    signals?: EngineReason[];
  }): void;
  /** A document scan's outcome: passed (no reason) or refused for `reason`. */
  document(outcome: { reason?: EngineReason | undefined; durationMs: number }): void;
};

export const noInsight: EngineInsight = { record() {}, liveness() {}, document() {} };

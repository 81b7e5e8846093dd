import { decodeRgb, fingerprint, meanLuma, type ImageLimits } from '../image';
import type { BlinkPlan, EmbeddingPlan } from '../liveness';
import type { FrameAnalysis } from '../types';
import { frameColour } from './colour';
import { detectTooClose, detectWithEyes, detectWithMargin, marginFor, newTask } from './detect';
import {
  decodeAnchor,
  encodeAnchor,
  eyeAnchor,
  eyeChange,
  grey,
  unchangedLimit,
  type EyeAnchor,
} from './eyes';
import { DETECTOR_MIN_CONFIDENCE, type Human } from './models';

export type AnalyzeOptions = {
  /**
   * 'all': describe every face; 'none': skip the 1024-d description (fast path for liveness frames);
   * a condition: describe a single face only when its eye ratio is below earBelow or above earAbove
   * (the frames a blink decider may count), paying for the description only on those frames.
   */
  embedding: 'all' | 'none' | Omit<EmbeddingPlan, 'always'>;
  maxSide?: number;
  fingerprint?: boolean;
};

export async function analyzeImage(
  human: Human,
  bytes: Uint8Array,
  limits: ImageLimits,
  opts: AnalyzeOptions,
): Promise<FrameAnalysis> {
  const t0 = performance.now();
  const task = newTask();
  const img = await decodeRgb(bytes, limits, opts.maxSide ?? 1280);
  const tDecode = performance.now();
  const fp = opts.fingerprint ? fingerprint(img) : undefined;
  let found = await detectWithEyes(human, img, opts.embedding === 'all', task);
  const cond = opts.embedding;
  if (typeof cond === 'object' && found.length === 1) {
    const f = found[0]!.face;
    const ear = f.ear.mean;
    const centre = [f.box[0] + f.box[2] / 2, f.box[1] + f.box[3] / 2] as const;
    const movedFar =
      cond.moved &&
      Math.hypot(centre[0] - cond.moved.from[0], centre[1] - cond.moved.from[1]) >
        cond.moved.beyond;
    if (
      movedFar ||
      (cond.earBelow !== undefined && ear < cond.earBelow) ||
      (cond.earAbove !== undefined && ear > cond.earAbove)
    ) {
      found = await detectWithEyes(human, img, true, task);
    }
  }
  const close = found.length ? null : await detectTooClose(human, img, task);
  const tDetect = performance.now();
  return {
    width: img.width,
    height: img.height,
    luminance: meanLuma(img),
    faces: close ? [close] : found.map((f) => f.face),
    fingerprint: fp
      ? { thumb: fp.thumb.toString('base64'), dhash: fp.dhash.toString() }
      : undefined,
    timings: { decodeMs: tDecode - t0, detectMs: tDetect - tDecode },
  };
}

export type FramesOptions = {
  maxSide?: number;
  /**
   * Describe the first analysed frame that shows exactly one face (the session has no reference face
   * yet). Decided before the detection: one pass.
   */
  describeFirst: boolean;
  /**
   * Blink tracking through the batch: a frame that reopens after a closing one (in this request, or
   * in an earlier one when `closed`) is described: in its one detection when its eyes changed from
   * the closed frame before it as much as an opening lid does, else in a second pass once its eye
   * ratio says so; a frame that is still closed is not.
   */
  blink?: BlinkPlan | undefined;
  /** Describe a face whose centre moved more than `beyond` pixels from the previous one (a possible swap). */
  moved?: { from: [number, number]; beyond: number } | undefined;
  /**
   * Skip a frame whose eye regions differ from the last analysed frame's by less than this (mean
   * absolute grey difference after removing the brightness offset, best of small shifts): it adds
   * nothing to a blink decision, and the detector is what costs. 0 analyses every frame. Lower for
   * eyes of low contrast (eyes.ts unchangedLimit: a lid closes them by less). With a
   * blink plan, only while the last analysed frame's eyes were clearly on one side of the threshold
   * the decider waits for (STEADY_MARGIN).
   */
  unchangedBelow: number;
  /**
   * The frames' times (the request's tags, in order) and the windows where a blink counts: a frame in
   * one is unchanged only below the stricter limit (eyes.ts CUE_WINDOW_SHARE).
   */
  careful?: { windows: Array<[number, number]>; times: number[] } | undefined;
  /** Analyse every frame (skip none). */
  analyseAll?: boolean | undefined;
  /**
   * The session's last analysed frame before this request: the `anchor` the previous request
   * returned (see FramesResult). With it the first frame of the request may be skipped as unchanged
   * like any other (`skipped.of` is then -1). Ignored when it does not decode or the frame size
   * changed.
   */
  anchor?: Uint8Array | null | undefined;
  /** The face box of the session's last analysed frame: the colour statistic's region until one is found. */
  colourBox?: [number, number, number, number] | null | undefined;
  /** That face's own extent (its mesh: issue 41), for the colour's core and rim. */
  colourExtent?: [number, number, number, number] | null | undefined;
};

export type FramesResult = {
  frames: FrameAnalysis[];
  /**
   * What the session keeps for its next request: the eye regions of the last analysed frame (the one
   * the next frames are compared with), or the anchor it was given when every frame was skipped; null
   * when the last analysed frame had not exactly one face with both eyes (the next request's first
   * frame is then analysed).
   */
  anchor: Uint8Array | null;
  /**
   * How the task's detections went (for the log): fresh, tracked, tracked ones done again fresh, and
   * how many of them computed the description.
   */
  detections: { fresh: number; tracked: number; redone: number; described: number };
};

/** Whether frame `index`'s time falls in a window where a blink counts. */
function inCueWindow(careful: FramesOptions['careful'], index: number): boolean {
  const t = careful?.times[index];
  return t !== undefined && careful!.windows.some(([from, to]) => t >= from && t <= to);
}

/** Reopening and closing may be seen this far (in eye ratio over the baseline) before the decider sees them. */
const BLINK_MARGIN = 0.05;
/**
 * Eye change (eyeChange) from a closed frame from which eyes are taken as open again, before the
 * detection: between a lid half way and open eyes on the blink fixtures (docs/measurements.md).
 * Such a frame, while waiting for the reopening, is described in its one detection; below this the
 * eye ratio decides, and a second pass describes it.
 */
const REOPENED_CHANGE = 28;

/**
 * How far from the threshold the decider waits for (in eye ratio over the baseline) an analysed
 * frame's eyes must be for frames unchanged from it to be skipped: the same eyes measure up to about
 * 0.05 of the baseline either way from frame to frame, so an unchanged frame of eyes at 0.84 of the
 * baseline (not yet open again for the decider) may well measure 0.86 (open), and eyes at 0.72 may
 * measure 0.68 (closed). Skipping those would hold the decider where it is for as long as the eyes
 * stay as they are (a lost blink).
 */
const STEADY_MARGIN = 0.1;
/**
 * While the decider waits for a reopening, at most this many frames in a row are skipped as
 * unchanged from a closed one; the next is analysed (issue 41). A lid stays closed 100-400 ms, three
 * frames at most; a frame the eye ratio took for closed whose eyes were in fact open (a held-out
 * face filling the oval in the sun: 0.67 of the baseline, then every later open frame unchanged from
 * it by 2.3-3.0) otherwise left every later frame skipped, no blink counted for the rest of the
 * session (bench log 2026-11-29, cues_missed).
 */
const MAX_CLOSED_SKIPS = 3;
/**
 * Whether frames unchanged from an analysed frame with eye ratio `ear` can bring the decider nothing.
 * `closed` is the decider's own phase after that frame (its thresholds exactly, not the early
 * closing this worker describes for): eyes at 0.702 of the baseline are not closed for the decider,
 * so the fully closed frame after them must be analysed, not skipped as unchanged (a lost blink, seen
 * in e2e: the lid half way, then closed, then open again, and no blink counted).
 */
function steady(ear: number, closed: boolean, baseline: number | null, blink?: BlinkPlan): boolean {
  if (!blink || baseline === null) return true;
  if (!Number.isFinite(ear)) return false;
  const ratio = ear / baseline;
  return closed
    ? ratio < blink.reopenRatio - STEADY_MARGIN
    : ratio >= blink.closedRatio + STEADY_MARGIN;
}

/**
 * The frames of one liveness request, in order, in one pass: each is decoded and fingerprinted (for
 * the duplicate checks); a frame whose eyes did not change since the last analysed frame (of this
 * request, or the previous request's through `anchor`) is skipped (`skipped` says which frame it
 * repeats); the others get detection + mesh + iris, the box tracked from the previous detection of
 * this task (detect.ts), and the 1024-d description only where the blink decision needs it: the first
 * frame of a session with one face, a reopening after a closing frame, a face that moved.
 */
export async function analyzeFrames(
  human: Human,
  frames: Uint8Array[],
  limits: ImageLimits,
  opts: FramesOptions,
): Promise<FramesResult> {
  const out: FrameAnalysis[] = [];
  const task = newTask();
  const given = decodeAnchor(opts.anchor);
  const blink = opts.blink;
  /** The last analysed frame's eye regions, and whether its eyes were closed. */
  let anchor: { index: number; eyes: EyeAnchor; closed: boolean } | null = given
    ? { index: -1, eyes: given, closed: blink?.closed ?? false }
    : null;
  let closed = blink?.closed ?? false;
  /** The decider's phase as its thresholds set it (`closed` turns early, to describe the reopening). */
  let phaseClosed = blink?.closed ?? false;
  /** Frames skipped in a row since the last analysed one (MAX_CLOSED_SKIPS). */
  let skippedRun = 0;
  let baseline = blink?.baseline ?? null;
  let describeFirst = opts.describeFirst;
  let from = opts.moved?.from;
  let colourBox = opts.colourBox ?? null;
  let colourExtent = opts.colourExtent ?? null;
  /** The latest frame skipped as unchanged before this task's first detection (a face's frame). */
  let skippedBefore: Awaited<ReturnType<typeof decodeRgb>> | null = null;
  for (const [index, bytes] of frames.entries()) {
    const t0 = performance.now();
    const img = await decodeRgb(bytes, limits, opts.maxSide ?? 640);
    // A face as large as the session's last one is looked for with a margin from the first frame on.
    if (index === 0) task.margin = marginFor(opts.colourExtent, img.width);
    const fp = fingerprint(img);
    const g = grey(img);
    const luminance = meanLuma(img);
    const tDecode = performance.now();
    const base = {
      width: img.width,
      height: img.height,
      luminance,
      fingerprint: { thumb: fp.thumb.toString('base64'), dhash: fp.dhash.toString() },
    };
    const change =
      anchor && anchor.eyes.width === img.width && anchor.eyes.height === img.height
        ? eyeChange(anchor.eyes, g)
        : null;
    if (
      anchor &&
      change !== null &&
      change < unchangedLimit(anchor.eyes, opts.unchangedBelow, inCueWindow(opts.careful, index)) &&
      !opts.analyseAll &&
      steady(anchor.eyes.ear, phaseClosed, baseline, blink) &&
      !(phaseClosed && skippedRun >= MAX_CLOSED_SKIPS)
    ) {
      skippedRun += 1;
      out.push({
        ...base,
        faces: [],
        skipped: { of: anchor.index, change: Number(change.toFixed(2)) },
        colour: frameColour(img, colourBox, colourExtent),
        timings: { decodeMs: tDecode - t0, detectMs: 0 },
      });
      if (task.fresh + task.tracked === 0) skippedBefore = img;
      continue;
    }
    skippedRun = 0;
    // Waiting for the reopening, eyes that changed from a closed frame as much as an opening lid
    // does: the reopening, described in its one detection.
    const reopened = closed && anchor?.closed === true && (change ?? 0) >= REOPENED_CHANGE;
    const describe = describeFirst || reopened;
    let found = await detectWithEyes(human, img, describe, task);
    if (!found.length && skippedBefore && !describe) {
      // The task's first detection found no face where the frame before it (skipped: its eyes
      // unchanged from a face's) had one: closed lids can hide a face from the detector (issue 41:
      // the held-out face filling the oval, no box even at confidence 0.02) but not from the
      // tracked mesh. The frame before gives the box; this one is looked at again from it.
      const before = await detectWithEyes(human, skippedBefore, false, task);
      if (before.length === 1) found = await detectWithEyes(human, img, false, task);
    }
    skippedBefore = null;
    // No face without a margin: perhaps one that fills the frame or is wider (detect.ts FACE_MARGIN).
    if (!found.length) found = await detectWithMargin(human, img, describe, task);
    let only = found.length === 1 ? found[0]! : null;
    if (only && !describe) {
      // Described only once the eye ratio and the position say the decider will need it: a second
      // (fresh) pass, rather than a description of every frame that might need one.
      const { box, ear } = only.face;
      const reopening =
        closed &&
        baseline !== null &&
        Number.isFinite(ear.mean) &&
        ear.mean >= baseline * (blink!.reopenRatio - BLINK_MARGIN);
      const movedFar =
        from !== undefined &&
        opts.moved !== undefined &&
        Math.hypot(box[0] + box[2] / 2 - from[0], box[1] + box[3] / 2 - from[1]) >
          opts.moved.beyond;
      if (reopening || movedFar) {
        found = await detectWithEyes(human, img, true, task);
        only = found.length === 1 ? found[0]! : null;
      }
    }
    const tDetect = performance.now();
    if (only) {
      describeFirst = false;
      const [x, y, w, h] = only.face.box;
      from = [x + w / 2, y + h / 2];
      const ear = only.face.ear.mean;
      if (blink && Number.isFinite(ear)) {
        baseline ??= ear;
        if (ear < baseline * (blink.closedRatio + BLINK_MARGIN)) closed = true;
        else if (ear >= baseline * blink.reopenRatio) closed = false;
        if (ear < baseline * blink.closedRatio) phaseClosed = true;
        else if (ear >= baseline * blink.reopenRatio) phaseClosed = false;
      }
    }
    const eyes = only?.eyes ? eyeAnchor(g, only.eyes, only.face.ear.mean) : null;
    anchor = eyes ? { index, eyes, closed } : null;
    // The colour's regions only from a face the mesh is sure of: a tracked face it scores low
    // (closed lids: detect.ts MESH_MIN_FACE_SCORE) gives its eyes, but its outline may be off.
    if (only && only.face.score >= DETECTOR_MIN_CONFIDENCE) {
      colourBox = only.face.box;
      colourExtent = only.face.extent ?? null;
    }
    out.push({
      ...base,
      faces: found.map((f) => f.face),
      colour: frameColour(img, colourBox, colourExtent),
      timings: { decodeMs: tDecode - t0, detectMs: tDetect - tDecode },
    });
  }
  const { fresh, tracked, redone, described } = task;
  return {
    frames: out,
    anchor: anchor ? encodeAnchor(anchor.eyes) : null,
    detections: { fresh, tracked, redone, described },
  };
}

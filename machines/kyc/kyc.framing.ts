import {
  DUPLICATE_FRAME_MARK,
  type LivenessFraming,
  type LivenessResponse,
} from '../../contract/identity';

/**
 * The selfie's framing on screen (issue 41), pure: what the oval says about where the face is, from
 * the server's answers. The machine keeps the result in its context and owns the timer
 * (kyc.capture.ts: `running.progressing` and `running.stalled`).
 *
 * - The framing the server answered (`framing`: too far, too close, no face...) stands until a later
 *   answer says otherwise: another framing, or progress on the challenge. An answer with nothing to
 *   show (every frame a duplicate, or a request whose answer repeats the last) changes nothing, so
 *   the hint never flickers between empty and said. An answer that only repeats where the challenge
 *   stands does not clear it either: the server answers that too for frames it skipped as unchanged
 *   since the last frame it analysed, which may be the one too far.
 * - Progress: an answer whose lines (the visible ones: the blink count, the light's round, 'quedate
 *   quieto') differ from the last answer's that had any. A cue shown or a colour painted is the
 *   challenge under way too, for the timer only (the server asks them whatever the framing).
 * - No silence: STALL_MS without progress and the oval says why, the standing framing or, with
 *   none, 'Mantené tu cara dentro del óvalo' ('stalled').
 */

/** Without progress this long, the oval says why. */
export const STALL_MS = 3_000;

/** What the oval may say: a framing the server answered, or 'stalled' (no progress, no framing known). */
export type FramingHint = LivenessFraming | 'stalled';

/** The feedback lines the patient sees: lines about duplicate frames are hidden (spec 5). */
export const visibleFeedback = (feedback: readonly string[]): string[] =>
  feedback.filter((line) => !line.includes(DUPLICATE_FRAME_MARK));

/** Where the challenge stands by this answer (its visible lines), or null when it says nothing. */
export function progressOf(result: LivenessResponse): string | null {
  const lines = visibleFeedback(result.feedback);
  return lines.length ? lines.join('\n') : null;
}

/** Whether the answer shows progress since `last` (the last answer's progressOf that had any). */
export const showsProgress = (last: string | null, result: LivenessResponse): boolean => {
  const now = progressOf(result);
  return now !== null && now !== last;
};

/** The framing that stands after this answer. */
export function framingAfter(
  standing: readonly LivenessFraming[],
  result: LivenessResponse,
  progressed: boolean,
): LivenessFraming[] {
  if (result.framing?.length) return [...result.framing];
  return progressed ? [] : [...standing];
}

/** What the oval says: the standing framing, else after STALL_MS without progress 'stalled'. */
export function framingHints(
  standing: readonly LivenessFraming[],
  stalled: boolean,
): FramingHint[] {
  if (standing.length) return [...standing];
  return stalled ? ['stalled'] : [];
}

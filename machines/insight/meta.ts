import type { BrowserError, InsightFlow, InsightStep } from '../../contract/insight';

/**
 * What a state is for journey insight, declared on the state itself (XState's `meta`, typed in each
 * flow's `setup({ types: { meta } })` and read with `snapshot.getMeta()`): a state renamed or moved
 * keeps what it declares, so the derivation (./derive.ts) needs no state path. A deeper state's
 * `step` wins over its parent's; a machine's root declares what the whole machine is.
 */
export type InsightMeta<TContext = never> = {
  /** On a flow machine's root: the flow whose journey it is (one journey per flow actor). */
  flow?: InsightFlow;
  /**
   * The step this state (and the states under it) belongs to; on a step's own child machine (the
   * registration form, the PIN, the SMS code, ...) its root's step is the step the child serves.
   */
  step?: InsightStep;
  /**
   * A final state: the step the flow was on passed, or was cancelled. 'assisted' (any state): a
   * case was opened for a person to verify the patient (issue 30), the journey's own end.
   */
  end?: 'passed' | 'cancelled' | 'assisted';
  /** Entering this state fails the step the journey is on, with this code. */
  fails?: BrowserError;
  /**
   * A child machine records its own steps while this state runs it: entering it passes `step`
   * (declared on the state before), leaving it forward passes the child's last step.
   */
  child?: InsightStep;
  /** Proves the mobile: leaving it for a step after this one continues a kept registration. */
  resumesPast?: InsightStep;
  /** A new try of the step on entering (a new SMS code asked for). */
  retry?: true;
  /**
   * A step decided here in one move (the camera, the device's activation): entering it enters and
   * passes the step; with `error`, a new code in that context field enters and fails it instead.
   */
  outcome?: { step: InsightStep; error?: 'cameraError' | 'activationError' };
  /** The capture's camera shows its picture here (once `camera.ready` brought it). */
  cameraLive?: true;
  /**
   * One attempt of a timed step (face recognition): it runs (`attempt`), its decision shows
   * (`decided`: `passed` tells from the context whether it passed) or it failed with the
   * context's error code (`failed`).
   */
  attempt?: {
    step: InsightStep;
    at: 'attempt' | 'decided' | 'failed';
    passed?: (context: TContext) => boolean;
  };
};

/** The `meta` of every flow machine's states (its `types: { meta }`). */
export type InsightStateMeta<TContext = never> = { insight?: InsightMeta<TContext> };

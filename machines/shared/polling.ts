import { fromCallback } from 'xstate';
import { toFlowError, type FlowError } from './errors';

/**
 * Frame polling, shared by the selfie liveness (700 ms, spec 9) and the face-authentication kiosk
 * (the server's recommended interval). One request in flight at a time: the next one starts
 * `intervalMs` after the previous one STARTED, or at once when the previous took longer. The
 * interval comes from the input or, when `intervalFrom` returns a number, from the last answer
 * (clamped to `minIntervalMs`). Leaving the state that invokes it aborts the request in flight and
 * cancels the timer. The first error stops the polling and is reported as a code.
 */
export type PollingInput<T> = {
  intervalMs: number;
  /** the call; honour `signal` (aborted when the state is left) */
  request: (signal: AbortSignal) => Promise<T>;
  /** a server-recommended interval read from an answer, if any */
  intervalFrom?: (result: T) => number | undefined;
  minIntervalMs?: number;
  /** wait one interval before the first request (default: request at once) */
  delayFirst?: boolean;
};

export type PollingEvent<T> =
  { type: 'poll.result'; result: T } | { type: 'poll.error'; error: FlowError };

/** A polling loop outside any actor (the kiosk or a composite actor may drive it directly). */
export function startPolling<T>(
  input: PollingInput<T>,
  onResult: (result: T) => void,
  onError: (error: FlowError) => void,
  now: () => number = () => Date.now(),
): () => void {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let interval = input.intervalMs;
  const min = input.minIntervalMs ?? 0;

  const schedule = (delay: number) => {
    if (controller.signal.aborted) return;
    timer = setTimeout(() => void tick(), Math.max(0, delay));
  };

  async function tick(): Promise<void> {
    const started = now();
    let result: T;
    try {
      result = await input.request(controller.signal);
    } catch (err) {
      if (!controller.signal.aborted) onError(toFlowError(err));
      return;
    }
    if (controller.signal.aborted) return;
    const recommended = input.intervalFrom?.(result);
    if (typeof recommended === 'number' && Number.isFinite(recommended))
      interval = Math.max(min, recommended);
    onResult(result);
    schedule(interval - (now() - started));
  }

  schedule(input.delayFirst ? interval : 0);
  return () => {
    controller.abort();
    if (timer !== undefined) clearTimeout(timer);
  };
}

/** The polling loop as an actor: reports `poll.result` and `poll.error` to its parent. */
export const pollingActor = fromCallback<
  { type: 'noop' },
  PollingInput<unknown>,
  PollingEvent<unknown>
>(({ input, sendBack }) =>
  startPolling(
    input,
    (result) => sendBack({ type: 'poll.result', result }),
    (error) => sendBack({ type: 'poll.error', error }),
  ),
);

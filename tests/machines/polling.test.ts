import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, setup } from 'xstate';
import { ApiError } from '../../machines/shared/errors';
import { pollingActor, type PollingEvent, type PollingInput } from '../../machines/shared/polling';
import { deferred, type Deferred } from './controlled';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

function harness(input: Omit<PollingInput<number>, 'request'>) {
  const calls: Array<{ signal: AbortSignal; answer: Deferred<number> }> = [];
  const request = (signal: AbortSignal) => {
    const answer = deferred<number>();
    calls.push({ signal, answer });
    return answer.promise;
  };
  const machine = setup({
    types: {
      context: {} as { seen: PollingEvent<unknown>[] },
      events: {} as PollingEvent<unknown> | { type: 'leave' },
    },
    actors: { polling: pollingActor },
  }).createMachine({
    context: { seen: [] },
    initial: 'polling',
    states: {
      polling: {
        invoke: {
          id: 'polling',
          src: 'polling',
          input: { ...input, request } as PollingInput<unknown>,
        },
        on: {
          'poll.result': {
            actions: assign({ seen: ({ context, event }) => [...context.seen, event] }),
          },
          'poll.error': {
            target: 'failed',
            actions: assign({ seen: ({ context, event }) => [...context.seen, event] }),
          },
          leave: 'left',
        },
      },
      failed: {},
      left: {},
    },
  });
  return { actor: createActor(machine).start(), calls };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('polling actor (machines/shared/polling.ts)', () => {
  it('keeps the cadence with one request in flight', async () => {
    const { actor, calls } = harness({ intervalMs: 700 });
    await flush();
    expect(calls).toHaveLength(1);
    // The answer takes 200 ms: the next request starts 700 ms after the first one started.
    await vi.advanceTimersByTimeAsync(200);
    calls[0]!.answer.resolve(1);
    await vi.advanceTimersByTimeAsync(499);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    // A slow answer (2 s): no second request while it is in flight, the next one right after it.
    await vi.advanceTimersByTimeAsync(2000);
    expect(calls).toHaveLength(2);
    calls[1]!.answer.resolve(2);
    await flush();
    expect(calls).toHaveLength(3);
    expect(actor.getSnapshot().context.seen).toEqual([
      { type: 'poll.result', result: 1 },
      { type: 'poll.result', result: 2 },
    ]);
  });

  it('takes the interval from the last answer when the server recommends one (not below the minimum)', async () => {
    const { calls } = harness({ intervalMs: 300, intervalFrom: (r) => r, minIntervalMs: 100 });
    await flush();
    calls[0]!.answer.resolve(1000);
    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    calls[1]!.answer.resolve(10);
    await vi.advanceTimersByTimeAsync(99);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(3);
  });

  it('waits one interval first when asked', async () => {
    const { calls } = harness({ intervalMs: 700, delayFirst: true });
    await vi.advanceTimersByTimeAsync(699);
    expect(calls).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(1);
  });

  it('stops when its state is left: the request in flight is aborted, no further request', async () => {
    const { actor, calls } = harness({ intervalMs: 700 });
    await flush();
    actor.send({ type: 'leave' });
    expect(calls[0]!.signal.aborted).toBe(true);
    calls[0]!.answer.resolve(1);
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toHaveLength(1);
    expect(actor.getSnapshot().context.seen).toEqual([]);
  });

  it('reports the first error as a code and stops', async () => {
    const { actor, calls } = harness({ intervalMs: 700 });
    await flush();
    calls[0]!.answer.reject(new ApiError('server', 400, 'Sesión inválida (invalid session).'));
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.seen).toEqual([
      {
        type: 'poll.error',
        error: { code: 'server', status: 400, serverMessage: 'Sesión inválida (invalid session).' },
      },
    ]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toHaveLength(1);
  });

  it('reports a dropped connection as network', async () => {
    const { actor, calls } = harness({ intervalMs: 700 });
    await flush();
    calls[0]!.answer.reject(new TypeError('Failed to fetch'));
    await flush();
    expect(actor.getSnapshot().context.seen).toEqual([
      { type: 'poll.error', error: { code: 'network' } },
    ]);
  });
});

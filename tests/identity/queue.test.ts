import { describe, expect, it } from 'vitest';
import { createWorkQueue, QueueFullError } from '../../server/identity/queue';

/** A task the test finishes by hand. */
function deferred() {
  let resolve!: () => void;
  const done = new Promise<void>((r) => (resolve = r));
  const started = { value: false };
  const task = async () => {
    started.value = true;
    await done;
    return 'ok';
  };
  return { task, resolve, started };
}
const tick = () => new Promise((r) => setImmediate(r));

describe('work queue', () => {
  it('runs at most `concurrency` tasks and refuses past `maxWaiting` with a Retry-After', async () => {
    const q = createWorkQueue({ name: 't', concurrency: 1, maxWaiting: 1 });
    const a = deferred();
    const b = deferred();
    const pa = q.run(a.task);
    const pb = q.run(b.task);
    await tick();
    expect(a.started.value).toBe(true);
    expect(b.started.value).toBe(false);
    const err = await q.run(async () => 'x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QueueFullError);
    expect((err as QueueFullError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    a.resolve();
    await pa;
    await tick();
    expect(b.started.value).toBe(true);
    b.resolve();
    expect(await pb).toBe('ok');
    expect(q.stats()).toMatchObject({ running: 0, waiting: 0, rejected: 1, completed: 2 });
  });

  it('one key holds at most maxPerKey slots; other keys still get in', async () => {
    const q = createWorkQueue({ name: 't', concurrency: 1, maxWaiting: 10, maxPerKey: 2 });
    const ts = [deferred(), deferred()];
    const ps = ts.map((t) => q.run(t.task, { key: 'flood' }));
    await expect(q.run(async () => 1, { key: 'flood' })).rejects.toMatchObject({
      reason: 'per_key',
    });
    const other = q.run(async () => 'other', { key: 'patient' });
    ts.forEach((t) => t.resolve());
    await Promise.all(ps);
    expect(await other).toBe('other');
    // The key's share is given back when its tasks end, also when they fail.
    await expect(q.run(() => Promise.reject(new Error('x')), { key: 'flood' })).rejects.toThrow(
      'x',
    );
    expect(await q.run(async () => 2, { key: 'flood' })).toBe(2);
  });

  it('high priority work goes first and has its own waiting room', async () => {
    const q = createWorkQueue({ name: 't', concurrency: 1, maxWaiting: 1 });
    const order: string[] = [];
    const first = deferred();
    const p0 = q.run(first.task);
    const pn = q.run(async () => void order.push('normal'));
    await expect(q.run(async () => 0)).rejects.toBeInstanceOf(QueueFullError);
    const ph = q.run(async () => void order.push('high'), { priority: 'high' });
    first.resolve();
    await Promise.all([p0, pn, ph]);
    expect(order).toEqual(['high', 'normal']);
  });
});

import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import v8 from 'node:v8';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FacePool, WORKER_INITIAL_OLD_SPACE_MB } from '../../server/identity/pool';
import { IMAGE_LIMITS } from './frames';

afterEach(() => vi.restoreAllMocks());

describe("the face workers' old generation", () => {
  it('starts larger than V8 sets it, for every worker the pool starts', async () => {
    const flag = `--initial-old-space-size=${WORKER_INITIAL_OLD_SPACE_MB}`;
    const setFlags = vi.spyOn(v8, 'setFlagsFromString');
    /** Whether the flag was set when each worker was spawned (V8 reads it as the isolate starts). */
    const setBefore: boolean[] = [];
    const pool = new FacePool({
      size: 2,
      limits: IMAGE_LIMITS,
      taskTimeoutMs: 1000,
      spawn: () => {
        setBefore.push(setFlags.mock.calls.some(([f]) => f === flag));
        return Object.assign(new EventEmitter(), { terminate: async () => 0 }) as unknown as Worker;
      },
    });
    await pool.close();
    expect(setBefore).toEqual([true, true]);
    // Above what V8 gives a worker by itself: the busy worker's live heap is 31-33 MiB.
    expect(WORKER_INITIAL_OLD_SPACE_MB).toBeGreaterThanOrEqual(128);
  });

  it('is a flag the running V8 knows (an unknown one would be ignored with a warning)', () => {
    const stderr = (flag: string) =>
      spawnSync(
        process.execPath,
        ['-e', `require('node:v8').setFlagsFromString(${JSON.stringify(flag)})`],
        {
          encoding: 'utf8',
        },
      ).stderr;
    expect(stderr(`--initial-old-space-size=${WORKER_INITIAL_OLD_SPACE_MB}`)).toBe('');
    // The check sees a flag V8 does not know.
    expect(stderr('--initial-old-spaze-size=128')).toMatch(/unrecognized flag/);
  });
});

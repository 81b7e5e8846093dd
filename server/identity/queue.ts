import { KeyBudget } from './key-budget';

/**
 * A bounded queue for costly work (face analysis, document OCR): at most `concurrency` tasks run, at
 * most `maxWaiting` wait, and one key (a client address) holds at most `maxPerKey` running or waiting
 * tasks. Anything over a bound is refused at once with QueueFullError (answered 503 + Retry-After),
 * so a flood from one address cannot fill the queue ahead of everyone else. 'high' priority work
 * (a patient already in a session) is served before 'normal' work and has its own waiting room of
 * the same size, so a flood of new work never starves it.
 *
 *   const q = createWorkQueue({ name: 'document', concurrency: 1, maxWaiting: 4, maxPerKey: 1 });
 *   const answer = await q.run(() => engine.scanDocument(...), { key: request.ip });
 */
type Priority = 'high' | 'normal';

type WorkQueueOptions = {
  name: string;
  concurrency: number;
  maxWaiting: number;
  /** Running + waiting tasks per key; unlimited when absent. */
  maxPerKey?: number;
  /**
   * Fair share (issue 21, item 5): tasks of one key RUNNING at once, below `concurrency` so that
   * another key always finds a slot; a key's further tasks wait (within maxPerKey). Unlimited when absent.
   */
  maxRunningPerKey?: number;
  /** Budget per key: at most this much `cost` (face frames) per `budgetWindowMs` (default a minute). */
  budgetPerKey?: number;
  budgetWindowMs?: number;
  /** The clock for task durations (tests). */
  now?: () => number;
};

type QueueStats = {
  running: number;
  waiting: number;
  rejected: number;
  completed: number;
  /** Moving average of a task's duration, ms. */
  avgTaskMs: number;
};

export interface WorkQueue {
  readonly name: string;
  /** Runs the task when a slot is free; throws QueueFullError at once when a bound is reached. */
  run<T>(
    task: () => Promise<T>,
    options?: { key?: string; priority?: Priority; cost?: number },
  ): Promise<T>;
  stats(): QueueStats;
}

/** The queue is full (or this key has its share): try again in `retryAfterSeconds`. */
export class QueueFullError extends Error {
  constructor(
    readonly queue: string,
    readonly reason: 'full' | 'per_key' | 'budget',
    readonly retryAfterSeconds: number,
  ) {
    super(`${queue} queue ${reason}`);
    this.name = 'QueueFullError';
  }
}

type Waiter = { start: () => void; key: string | undefined };

/** Fair share: how many tasks of each key run, and which waiter may start next. */
function fairShare(maxRunningPerKey: number | undefined) {
  const runningPerKey = new Map<string, number>();
  const atCap = (key: string | undefined) =>
    key !== undefined &&
    maxRunningPerKey !== undefined &&
    (runningPerKey.get(key) ?? 0) >= maxRunningPerKey;
  return {
    atCap,
    /** Removes and returns the first waiter whose key is under its share. */
    take(list: Waiter[]): Waiter | undefined {
      const i = list.findIndex((w) => !atCap(w.key));
      return i < 0 ? undefined : list.splice(i, 1)[0];
    },
    started(key: string | undefined) {
      if (key !== undefined) runningPerKey.set(key, (runningPerKey.get(key) ?? 0) + 1);
    },
    ended(key: string | undefined) {
      if (key === undefined) return;
      const n = (runningPerKey.get(key) ?? 1) - 1;
      if (n > 0) runningPerKey.set(key, n);
      else runningPerKey.delete(key);
    },
  };
}

export function createWorkQueue(options: WorkQueueOptions): WorkQueue {
  const now = options.now ?? (() => performance.now());
  const waiting: Record<Priority, Waiter[]> = { high: [], normal: [] };
  const perKey = new Map<string, number>();
  let running = 0;
  let rejected = 0;
  let completed = 0;
  let avgTaskMs = 1000;
  const share = fairShare(options.maxRunningPerKey);
  const budget =
    options.budgetPerKey !== undefined
      ? new KeyBudget(options.budgetPerKey, options.budgetWindowMs ?? 60_000)
      : null;

  const retryAfter = () => {
    const ahead = running + waiting.high.length + waiting.normal.length;
    return Math.max(1, Math.ceil(((ahead / options.concurrency) * avgTaskMs) / 1000));
  };

  const next = () => {
    while (running < options.concurrency) {
      const w = share.take(waiting.high) ?? share.take(waiting.normal);
      if (!w) return;
      running++;
      share.started(w.key);
      w.start();
    }
  };

  return {
    name: options.name,
    async run(task, { key, priority = 'normal', cost = 1 } = {}) {
      if (key !== undefined && options.maxPerKey !== undefined) {
        if ((perKey.get(key) ?? 0) >= options.maxPerKey) {
          rejected++;
          throw new QueueFullError(options.name, 'per_key', retryAfter());
        }
      }
      if (key !== undefined && budget) {
        const waitMs = budget.spend(key, cost, now());
        if (waitMs > 0) {
          rejected++;
          throw new QueueFullError(options.name, 'budget', Math.ceil(waitMs / 1000));
        }
      }
      const mustWait = running >= options.concurrency || share.atCap(key);
      if (mustWait && waiting[priority].length >= options.maxWaiting) {
        rejected++;
        throw new QueueFullError(options.name, 'full', retryAfter());
      }
      if (key !== undefined) perKey.set(key, (perKey.get(key) ?? 0) + 1);
      try {
        if (mustWait) await new Promise<void>((start) => waiting[priority].push({ start, key }));
        else {
          running++;
          share.started(key);
        }
        const t0 = now();
        try {
          return await task();
        } finally {
          avgTaskMs = avgTaskMs * 0.8 + (now() - t0) * 0.2;
          completed++;
          running--;
          share.ended(key);
          next();
        }
      } finally {
        if (key !== undefined) {
          const n = (perKey.get(key) ?? 1) - 1;
          if (n > 0) perKey.set(key, n);
          else perKey.delete(key);
        }
      }
    },
    stats: () => ({
      running,
      waiting: waiting.high.length + waiting.normal.length,
      rejected,
      completed,
      avgTaskMs: Math.round(avgTaskMs),
    }),
  };
}

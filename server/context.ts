import type { Config } from './config';
import type { Db } from './db/client';
import type { PinHasher } from './security/pin';
import type { Secrets } from './security/secrets';

/** What every route plugin receives. Areas add their own collaborators here. */
export type AppContext = {
  config: Config;
  db: Db;
  secrets: Secrets;
  pins: PinHasher;
  /** Injectable clock and sleep: tests drive time without waiting. */
  clock: { now(): number; sleep(ms: number): Promise<void> };
};

export const systemClock: AppContext['clock'] = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

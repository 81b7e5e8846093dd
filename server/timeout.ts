/** A promise that did not settle in time (withTimeout). */
export class TimeoutError extends Error {
  constructor(ms: number) {
    super(`no answer in ${ms} ms`);
  }
}

/** `p`'s outcome, or a TimeoutError once `ms` passed (the work behind `p` goes on). */
export function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new TimeoutError(ms)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

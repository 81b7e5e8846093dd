import { fromPromise } from 'xstate';

export type Deferred<T> = {
  promise: Promise<T>;
  resolve: (v: T) => void;
  reject: (e: unknown) => void;
};

export function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export type Call<I, O> = { input: I; answer: Deferred<O> };

/** A promise actor that records each call and answers only when the test resolves or rejects it. */
export function controlled<O, I>() {
  const calls: Array<Call<I, O>> = [];
  const logic = fromPromise<O, I>(({ input }) => {
    const answer = deferred<O>();
    calls.push({ input, answer });
    return answer.promise;
  });
  return { logic, calls };
}

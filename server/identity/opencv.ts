import { createRequire } from 'node:module';

/**
 * OpenCV 4.12 compiled to WebAssembly (`@techstark/opencv-js`, Apache-2.0): loaded once per thread,
 * offline (the wasm is inlined in the package). What `require` gives is either a promise or a module
 * object that calls `onRuntimeInitialized` when ready; both are handled.
 *
 * The package's own type declarations point at a path it does not ship, so the few calls used here
 * are typed loosely (`Cv`); every Mat made must be `.delete()`d (it lives in the wasm heap).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Cv = any;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Mat = any;

let loading: Promise<Cv> | null = null;

export function loadOpenCv(): Promise<Cv> {
  return (loading ??= (async () => {
    const require = createRequire(import.meta.url);
    const mod = require('@techstark/opencv-js') as Cv;
    const cv = mod instanceof Promise ? ((await mod) as Cv) : mod;
    if (!cv.Mat) await new Promise<void>((ready) => (cv.onRuntimeInitialized = ready));
    // An Emscripten module is a thenable that resolves to itself: awaiting it would never end.
    if (typeof cv.then === 'function') delete cv.then;
    return cv;
  })());
}

/** Runs `fn` and deletes every Mat it registered with `keep`, whatever happens. */
export function withMats<T>(fn: (keep: <M extends Mat>(m: M) => M) => T): T {
  const mats: Mat[] = [];
  try {
    return fn((m) => (mats.push(m), m));
  } finally {
    for (const m of mats) m.delete();
  }
}

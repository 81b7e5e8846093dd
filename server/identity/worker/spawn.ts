import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

const require = createRequire(import.meta.url);

/** A worker thread running a TypeScript entry, compiled in the worker by tsx's loader as in the main thread. */
export function spawnTsWorker(entry: URL, workerData: unknown): Worker {
  const tsxApi = pathToFileURL(require.resolve('tsx/esm/api')).href.replace(/\.cjs$/, '.mjs');
  const src = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(src, { eval: true, workerData, stdout: false, stderr: false });
}

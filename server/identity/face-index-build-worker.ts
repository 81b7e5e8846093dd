import { renameSync, writeFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import {
  FACE_DIM,
  newIndex,
  sealOf,
  type BuildAnswer,
  type BuildRequest,
  type BuildWorkerData,
} from './face-index';

/**
 * The face index's build off the serving thread (face-index.ts buildFile starts one per build):
 * pages of enrolments come in as messages (the main thread reads them from the database, which
 * stays the source of truth), each added here in `batch`-row calls of usearch's `add` (`threads`,
 * 0: one per core), answered 'added' so the main thread sends the next; 'save' writes the file
 * under its temporary name, then its seal, and renames both (a process never maps half a file).
 * An `add` blocks only this thread: the serving event loop runs on.
 */
const { settings, batch, threads } = workerData as BuildWorkerData;
const index = newIndex(settings);

function handle(req: BuildRequest): BuildAnswer {
  if (req.type === 'page') {
    for (let i = 0; i < req.keys.length; i += batch) {
      const end = Math.min(i + batch, req.keys.length);
      index.add(
        req.keys.subarray(i, end),
        req.unit.subarray(i * FACE_DIM, end * FACE_DIM),
        threads,
      );
    }
    return { type: 'added', size: index.size() };
  }
  index.save(req.tmp);
  // The seal first: a file is only used once its seal is there.
  writeFileSync(`${req.tmp}.seal`, sealOf(req.tmp));
  renameSync(`${req.tmp}.seal`, `${req.final}.seal`);
  renameSync(req.tmp, req.final);
  return { type: 'saved', size: index.size() };
}

parentPort!.on('message', (req: BuildRequest) => {
  try {
    parentPort!.postMessage(handle(req));
  } catch (err) {
    parentPort!.postMessage({ type: 'error', error: String(err) } satisfies BuildAnswer);
  }
});

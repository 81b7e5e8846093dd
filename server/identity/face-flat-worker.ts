import { parentPort, threadId, workerData } from 'node:worker_threads';
import { scanFlat, type FlatFile } from './face-flat-scan';

/**
 * The flat file's scan off the main thread (face-flat-search.ts starts one per process): a request
 * names the file, the quantised probe, how many rows to answer and the patients to leave out; the
 * answer is the best rows (int8 cosines) and the scan's time. Two chunk buffers live here for the
 * worker's life (`chunkRows` x 1 KiB, and the ids): the only memory a search takes, whatever N is.
 */
export type FlatRequest = {
  id: number;
  file: FlatFile;
  probe: Int8Array;
  k: number;
  masked: BigInt64Array;
};
export type FlatAnswer =
  | { id: number; hits: { patientId: string; similarity: number }[]; ms: number; thread: number }
  | { id: number; error: string };

const chunkRows = (workerData as { chunkRows: number }).chunkRows;
const buffers = { vectors: Buffer.alloc(chunkRows * 1024), ids: Buffer.alloc(chunkRows * 8) };

parentPort!.on('message', (req: FlatRequest) => {
  const t0 = performance.now();
  try {
    const hits = scanFlat(req.file, req.probe, req.k, req.masked, chunkRows, buffers);
    parentPort!.postMessage({
      id: req.id,
      hits,
      ms: performance.now() - t0,
      thread: threadId,
    } satisfies FlatAnswer);
  } catch (err) {
    parentPort!.postMessage({ id: req.id, error: String(err) } satisfies FlatAnswer);
  }
});

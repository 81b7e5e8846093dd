import type { Worker } from 'node:worker_threads';
import type { StraightenedCard } from './card-geometry';
import { IdentityError, identityStatus, type IdentityErrorCode } from './errors';
import type { ImageLimits } from './image';
import type { CardResponse, CardWorkerData } from './worker/card-worker';
import { spawnTsWorker } from './worker/spawn';

/**
 * The document reader's card worker (worker/card-worker.ts): one thread, started on first use, one
 * photo at a time. An upload that cannot be decoded is refused as the face work refuses it
 * (IdentityError); any other failure, or a photo that takes longer than `timeoutMs` (the thread is
 * ended and the next photo starts a new one), rejects with a plain Error and the reader goes on with
 * the photo as it is.
 */
interface CardImages {
  straighten(bytes: Uint8Array): Promise<StraightenedCard>;
  close(): Promise<void>;
}

const entry = new URL('./worker/card-worker.ts', import.meta.url);

export function createCardImages(options: { limits: ImageLimits; timeoutMs: number }): CardImages {
  let worker: Promise<Worker> | null = null;
  let nextId = 1;
  let chain: Promise<unknown> = Promise.resolve();

  const start = () =>
    new Promise<Worker>((resolve, reject) => {
      const w = spawnTsWorker(entry, { limits: options.limits } satisfies CardWorkerData);
      w.once('message', () => resolve(w));
      w.once('error', reject);
      w.once('exit', () => {
        if (worker) worker = null;
        reject(new Error('card worker exited'));
      });
    });

  async function run(bytes: Uint8Array): Promise<StraightenedCard> {
    const w = await (worker ??= start().catch((err) => ((worker = null), Promise.reject(err))));
    const id = nextId++;
    return new Promise<StraightenedCard>((resolve, reject) => {
      const timer = setTimeout(() => {
        w.off('message', onMessage);
        worker = null;
        void w.terminate();
        reject(new Error('card worker timed out'));
      }, options.timeoutMs);
      const onMessage = (msg: CardResponse) => {
        if (msg.id !== id) return;
        clearTimeout(timer);
        w.off('message', onMessage);
        if (msg.ok) {
          const img = msg.card.image;
          resolve({ ...msg.card, image: { ...img, data: Buffer.from(img.data) } });
        } else if (msg.error.code in identityStatus)
          reject(new IdentityError(msg.error.code as IdentityErrorCode, msg.error.message));
        else reject(new Error(msg.error.message));
      };
      w.on('message', onMessage);
      w.postMessage({ id, bytes });
    });
  }

  return {
    straighten(bytes) {
      // One photo at a time: the thread is single and a timeout restarts it for the next.
      const p = chain.then(() => run(bytes));
      chain = p.catch(() => {});
      return p;
    },
    async close() {
      const w = worker;
      worker = null;
      if (w) await (await w.catch(() => null))?.terminate();
    },
  };
}

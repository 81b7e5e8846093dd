import { parentPort, workerData } from 'node:worker_threads';
import sharp from 'sharp';
import { straightenCard, type StraightenedCard } from '../card-geometry';
import { IdentityError } from '../errors';
import { decodeRgb, type ImageLimits } from '../image';
import { loadOpenCv } from '../opencv';

/**
 * Worker thread of the document reader: finds each photographed side of the card and straightens it
 * (card-geometry.ts, OpenCV in WebAssembly), so neither decoding nor OpenCV runs on the event loop.
 * Every failure is answered as a message.
 */
type CardRequest = { id: number; bytes: Uint8Array };
export type CardResponse =
  | { id: number; ok: true; card: StraightenedCard }
  | { id: number; ok: false; error: { code: string; message: string } };
export type CardWorkerData = { limits: ImageLimits };

const port = parentPort;
if (!port) throw new Error('card-worker must run in a worker thread');
const { limits } = workerData as CardWorkerData;
sharp.concurrency(1);
const cv = await loadOpenCv();
port.postMessage({ ready: true });

port.on('message', async (msg: CardRequest) => {
  try {
    const straightened = straightenCard(cv, await decodeRgb(msg.bytes, limits, 2400));
    // The pixels travel in an ArrayBuffer of their own: a photo read as it is (no outline, no
    // skew) is sharp's output, whose memory Node.js 24 refuses to transfer ('Cannot transfer
    // object of unsupported type'). A new Uint8Array copies into its own buffer (never the pool).
    const data = Buffer.from(new Uint8Array(straightened.image.data).buffer);
    const card = { ...straightened, image: { ...straightened.image, data } };
    port.postMessage({ id: msg.id, ok: true, card } satisfies CardResponse, [
      data.buffer as ArrayBuffer,
    ]);
  } catch (err) {
    const error =
      err instanceof IdentityError
        ? { code: err.code, message: err.message }
        : { code: 'card_failed', message: err instanceof Error ? err.message : String(err) };
    port.postMessage({ id: msg.id, ok: false, error } satisfies CardResponse);
  }
});

import { checkUpload, type ImageLimits } from './image';
import type { FacePool } from './pool';
import type { FaceObservation, FrameAnalysis } from './types';

/** Main face of an image for 1:1 work: the largest one. */
function mainFace(frame: FrameAnalysis): FaceObservation | null {
  return [...frame.faces].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3])[0] ?? null;
}

/** Every face of an upload described (1024-d), and its main face (a document's front, a 1:1 image). */
export async function describeMain(
  pool: FacePool,
  limits: ImageLimits,
  image: Uint8Array,
): Promise<{ frame: FrameAnalysis; face: FaceObservation | null }> {
  checkUpload(image, limits);
  const frame = await pool.analyze(image, { embedding: 'all' });
  return { frame, face: mainFace(frame) };
}

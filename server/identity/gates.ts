import type { IdentityConfig } from './config';
import { hints } from './hints';
import type { FaceObservation, FrameAnalysis } from './types';

export type GateName = 'no_face' | 'several_faces' | 'too_far' | 'too_dark' | 'not_centred';
export type GateResult =
  | { ok: true; face: FaceObservation; failed: []; hints: [] }
  | { ok: false; face: FaceObservation | null; failed: GateName[]; hints: string[] };

const hintOf: Record<GateName, string> = {
  no_face: hints.noFace,
  several_faces: hints.severalFaces,
  too_far: hints.tooFar,
  too_dark: hints.tooDark,
  not_centred: hints.notCentred,
};

type GateConfig = Pick<
  IdentityConfig,
  'minFacePx' | 'minFaceRatio' | 'minLuminance' | 'maxCenterOffset'
>;

/**
 * The selfie gates: exactly one face, large enough (pixels and share of the frame), enough light
 * (frame and face; a near-black frame can still yield a false face), roughly centred.
 */
export function checkGates(frame: FrameAnalysis, cfg: GateConfig): GateResult {
  const failed: GateName[] = [];
  const dark = frame.luminance < cfg.minLuminance;
  if (dark) failed.push('too_dark');
  if (frame.faces.length === 0) {
    if (!dark) failed.push('no_face');
    return { ok: false, face: null, failed, hints: failed.map((g) => hintOf[g]) };
  }
  if (frame.faces.length > 1) failed.push('several_faces');
  const face = frame.faces.length === 1 ? frame.faces[0]! : null;
  if (face) {
    const [x, y, w, h] = face.box;
    if (face.luminance < cfg.minLuminance && !dark) failed.push('too_dark');
    if (w < cfg.minFacePx || w / frame.width < cfg.minFaceRatio) failed.push('too_far');
    const dx = (x + w / 2) / frame.width - 0.5;
    const dy = (y + h / 2) / frame.height - 0.5;
    if (Math.abs(dx) > cfg.maxCenterOffset || Math.abs(dy) > cfg.maxCenterOffset)
      failed.push('not_centred');
  }
  if (failed.length === 0 && face) return { ok: true, face, failed: [], hints: [] };
  return { ok: false, face, failed, hints: failed.map((g) => hintOf[g]) };
}

import {
  faceAuthFrameResponse,
  faceAuthParts,
  faceAuthPaths,
  faceAuthStartResponse,
  faceAuthStopResponse,
  kioskActivateResponse,
  kioskPaths,
  type FaceAuthFrameResponse,
  type FaceAuthStartResponse,
  type KioskActivateResponse,
} from '../../contract/face-auth';
import { request } from '../shared/http';

export function postStart(prefix: string, signal?: AbortSignal): Promise<FaceAuthStartResponse> {
  return request(faceAuthPaths(prefix).start, { body: {}, schema: faceAuthStartResponse, signal });
}

export function postFrame(
  prefix: string,
  sessionId: string,
  frame: Blob,
  signal?: AbortSignal,
): Promise<FaceAuthFrameResponse> {
  const form = new FormData();
  form.append(faceAuthParts.sessionId, sessionId);
  form.append(faceAuthParts.frame, frame, faceAuthParts.filename);
  return request(faceAuthPaths(prefix).frame, { form, schema: faceAuthFrameResponse, signal });
}

export async function postStop(prefix: string, sessionId: string): Promise<void> {
  await request(faceAuthPaths(prefix).stop, {
    body: { session_id: sessionId },
    schema: faceAuthStopResponse,
  });
}

export function postActivate(token: string, signal?: AbortSignal): Promise<KioskActivateResponse> {
  return request(kioskPaths.activate, { body: { token }, schema: kioskActivateResponse, signal });
}

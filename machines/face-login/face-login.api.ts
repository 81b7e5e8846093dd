import {
  faceLoginFrameResponse,
  faceLoginParts,
  faceLoginPaths,
  faceLoginStartResponse,
  faceLoginStopResponse,
  kioskActivateResponse,
  kioskPaths,
  type FaceLoginFrameResponse,
  type FaceLoginStartResponse,
  type KioskActivateResponse,
} from '../../contract/face-login';
import { request } from '../shared/http';

export function postStart(prefix: string, signal?: AbortSignal): Promise<FaceLoginStartResponse> {
  return request(faceLoginPaths(prefix).start, {
    body: {},
    schema: faceLoginStartResponse,
    signal,
  });
}

export function postFrame(
  prefix: string,
  sessionId: string,
  frame: Blob,
  signal?: AbortSignal,
): Promise<FaceLoginFrameResponse> {
  const form = new FormData();
  form.append(faceLoginParts.sessionId, sessionId);
  form.append(faceLoginParts.frame, frame, faceLoginParts.filename);
  return request(faceLoginPaths(prefix).frame, { form, schema: faceLoginFrameResponse, signal });
}

export async function postStop(prefix: string, sessionId: string): Promise<void> {
  await request(faceLoginPaths(prefix).stop, {
    body: { session_id: sessionId },
    schema: faceLoginStopResponse,
  });
}

export function postActivate(token: string, signal?: AbortSignal): Promise<KioskActivateResponse> {
  return request(kioskPaths.activate, { body: { token }, schema: kioskActivateResponse, signal });
}

import {
  myFaceCodeResponse,
  myFacePaths,
  myFaceResponse,
  type MyFaceCodeResponse,
  type MyFaceResponse,
} from '../../contract/my-face';
import { request } from '../shared/http';

/** 'Mi rostro' (issue 45 item 4): the signed-in patient's face (the session cookie says who). */
export const getMyFace = (signal?: AbortSignal): Promise<MyFaceResponse> =>
  request(myFacePaths.state, { schema: myFaceResponse, signal });

export const lockMyFace = (signal?: AbortSignal): Promise<MyFaceResponse> =>
  request(myFacePaths.lock, { body: {}, schema: myFaceResponse, signal });

export const sendUnlockCode = (signal?: AbortSignal): Promise<MyFaceCodeResponse> =>
  request(myFacePaths.sendCode, { body: {}, schema: myFaceCodeResponse, signal });

export const unlockMyFace = (
  body: { pin: string; otp: string },
  signal?: AbortSignal,
): Promise<MyFaceResponse> => request(myFacePaths.unlock, { body, schema: myFaceResponse, signal });

export const withdrawMyFace = (
  body: { pin: string },
  signal?: AbortSignal,
): Promise<MyFaceResponse> =>
  request(myFacePaths.withdraw, { body, schema: myFaceResponse, signal });

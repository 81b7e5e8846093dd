import { fromPromise } from 'xstate';
import type { MyFaceCodeResponse, MyFaceResponse } from '../../contract/my-face';
import { getMyFace, lockMyFace, sendUnlockCode, unlockMyFace, withdrawMyFace } from './my-face.api';

/** The calls of 'Mi rostro'; stories and tests provide their own. */
export const myFaceActors = {
  loadFace: fromPromise<MyFaceResponse>(({ signal }) => getMyFace(signal)),
  lockFace: fromPromise<MyFaceResponse>(({ signal }) => lockMyFace(signal)),
  sendCode: fromPromise<MyFaceCodeResponse>(({ signal }) => sendUnlockCode(signal)),
  unlockFace: fromPromise<MyFaceResponse, { pin: string; otp: string }>(({ input, signal }) =>
    unlockMyFace(input, signal),
  ),
  withdrawFace: fromPromise<MyFaceResponse, { pin: string }>(({ input, signal }) =>
    withdrawMyFace(input, signal),
  ),
};

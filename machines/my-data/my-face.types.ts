import type { MyFaceState } from '../../contract/my-face';
import type { FlowError } from '../shared/errors';

export type { MyFaceState } from '../../contract/my-face';

export type MyFaceContext = {
  face: MyFaceState | null;
  /** what the patient typed: kept across a failed try, cleared once used */
  pin: string;
  otp: string;
  /** the server's sentence after a change ('Bloqueaste...', 'Te enviamos un código...') */
  notice: string | null;
  /** seconds before another code may be asked for (the server's resend wait) */
  resendAfterSeconds: number | null;
  error: FlowError | null;
  /** failed submits of a PIN form: each one sends the focus back to the field to fix */
  failures: number;
};

export type MyFaceEvent =
  | { type: 'face.lock' }
  | { type: 'face.unlock' }
  | { type: 'face.withdraw' }
  | { type: 'face.submit' }
  | { type: 'face.code.resend' }
  | { type: 'face.cancel' }
  | { type: 'face.retry' }
  | { type: 'pin.change'; value: string }
  | { type: 'otp.change'; value: string };

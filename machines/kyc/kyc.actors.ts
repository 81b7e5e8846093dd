import { fromPromise } from 'xstate';
import { postStartKyc } from './kyc.api';

/** The KYC session id: the one the wizard already holds, else a new one from the server. */
export const ensureSession = fromPromise<string, { sessionId: string | null }>(
  async ({ input, signal }) => {
    if (input.sessionId) return input.sessionId;
    const res = await postStartKyc(signal);
    return res.session_id;
  },
);

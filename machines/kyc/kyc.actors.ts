import { fromPromise } from 'xstate';
import { ApiError } from '../shared/errors';
import { postStartKyc } from './kyc.api';

/**
 * The KYC session id: the one the wizard already holds, else a new one from the server.
 * A `success: false` or an answer without session_id is a refusal, carried as an ApiError.
 */
export const ensureSession = fromPromise<string, { sessionId: string | null }>(
  async ({ input, signal }) => {
    if (input.sessionId) return input.sessionId;
    const res = await postStartKyc(signal);
    if (!res.success || !res.session_id) throw new ApiError('rejected', undefined, res.message);
    return res.session_id;
  },
);

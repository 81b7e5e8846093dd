/**
 * Issue 7: past the server's per-session frame cap POST /liveness answers 429 with the reason
 * `frames_exhausted` (issue 27: the code decides, not the sentence), so the selfie step treats it
 * as an expired session (a new session on 'Intentar nuevamente'), not as 'too many attempts, wait'
 * (waiting would not help).
 */
import { describe, expect, it } from 'vitest';
import { livenessErrorFrom } from '../../machines/kyc/kyc.errors';
import { ApiError, toFlowError } from '../../machines/shared/errors';
import { identityMessages } from '../../server/identity/errors';

describe('kyc machine: the server refuses frames past the session cap', () => {
  it('is an expired session, whatever the status', () => {
    const capped = new ApiError(
      'tooManyAttempts',
      429,
      identityMessages.framesExhausted,
      undefined,
      'frames_exhausted',
    );
    expect(livenessErrorFrom(toFlowError(capped))).toEqual({
      code: 'sessionExpired',
      reason: 'frames_exhausted',
    });
    // An ordinary 429 stays 'too many attempts' (the code is what decides).
    const limited = new ApiError('tooManyAttempts', 429, 'Demasiados intentos. Esperá 2 minutos.');
    expect(livenessErrorFrom(toFlowError(limited))).toMatchObject({ code: 'tooManyAttempts' });
  });
});

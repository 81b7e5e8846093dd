import { assign, setup } from 'xstate';
import { toFlowError } from '../shared/errors';
import { ensureSession } from './kyc.actors';
import type { KycContext, KycError, KycEvent, KycInput, KycOutput } from './kyc.types';

export function kycErrorFrom(err: unknown): KycError {
  const e = toFlowError(err);
  const withMessage = (code: KycError['code']): KycError =>
    e.serverMessage ? { code, serverMessage: e.serverMessage } : { code };
  switch (e.code) {
    case 'tooManyAttempts':
      return withMessage('tooManyAttempts');
    case 'network':
      return { code: 'network' };
    default:
      return withMessage('startKycFailed');
  }
}

/**
 * The wizard's identity step (step 4). This issue builds its entry only: the session is created
 * when absent ('Cargando...'), a failure can be retried. The capture steps (selfie, frontal, dorso,
 * review, supplementary) belong to the KYC issue; until they exist, a ready session lands in
 * `unexpectedStep`, the spec's 'Algo salió mal, recargá la página.' for a step the wizard cannot
 * show. The KYC issue replaces that target with `selfie` and ends in a final state whose output
 * is `KycOutput`.
 */
export const kycMachine = setup({
  types: {
    context: {} as KycContext,
    events: {} as KycEvent,
    input: {} as KycInput,
    output: {} as KycOutput,
    tags: {} as 'busy' | 'error',
    children: {} as { ensureSession: 'ensureSession' },
  },
  actors: { ensureSession },
}).createMachine({
  id: 'kyc',
  context: ({ input }) => ({ sessionId: input?.sessionId ?? null, error: null }),
  initial: 'starting',
  states: {
    starting: {
      tags: ['busy'],
      entry: assign({ error: null }),
      invoke: {
        id: 'ensureSession',
        src: 'ensureSession',
        input: ({ context }) => ({ sessionId: context.sessionId }),
        onDone: {
          target: 'unexpectedStep',
          actions: assign({
            sessionId: ({ event }) => event.output,
            error: { code: 'unexpectedStep' },
          }),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => kycErrorFrom(event.error) }),
        },
      },
    },
    failed: {
      tags: ['error'],
      on: { 'kyc.retry': 'starting' },
    },
    unexpectedStep: {
      tags: ['error'],
    },
  },
});

export type KycMachine = typeof kycMachine;

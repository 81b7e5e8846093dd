import { assign, setup } from 'xstate';
import { registrationStatus, sendLink } from './onboarding.actors';
import { failureOf, withMessage } from './onboarding.errors';
import type { HandoffContext, HandoffEvent, HandoffInput } from './onboarding.types';
import type { InsightStateMeta } from '../insight/meta';

/**
 * 'Seguí en tu celular' on the first device, the wizard's `handoff` child: the SMS with the link
 * (sending, failed with a new try), then following the phone (waiting, with the status poll) until
 * it completes the registration (done), or until the registration is no longer this device's
 * (stopped). 'Usar la cámara de este dispositivo' and back are the wizard's.
 */
export const handoffMachine = setup({
  types: {
    meta: {} as InsightStateMeta,
    context: {} as HandoffContext,
    events: {} as HandoffEvent,
    input: {} as HandoffInput,
    tags: {} as 'busy' | 'error',
  },
  actors: { sendLink, registrationStatus },
}).createMachine({
  id: 'handoff',
  meta: { insight: { step: 'handoff' } },
  context: ({ input }) => ({ ...input, sent: null, error: null }),
  initial: 'sending',
  states: {
    sending: {
      tags: ['busy'],
      entry: assign({ error: null }),
      invoke: {
        id: 'sendLink',
        src: 'sendLink',
        input: ({ context }) => ({ registrationToken: context.registrationToken }),
        onDone: {
          target: 'waiting',
          actions: assign({
            sent: ({ context, event }) => ({
              link: event.output.link,
              // A new link keeps how far the phone got with the last one.
              stage: context.sent?.stage ?? 'waiting',
              expiresInSeconds: event.output.expiresInSeconds,
            }),
          }),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => failureOf('handoffFailed', event.error) }),
        },
      },
    },
    failed: { tags: ['error'], on: { 'handoff.resend': 'sending' } },
    waiting: {
      invoke: {
        id: 'registrationStatus',
        src: 'registrationStatus',
        input: ({ context }) => ({
          registrationToken: context.registrationToken,
          delayFirst: true,
        }),
      },
      on: {
        'handoff.resend': 'sending',
        'poll.result': [
          { guard: ({ event }) => event.result.stage === 'completed', target: 'done' },
          {
            actions: assign({
              sent: ({ context, event }) =>
                context.sent && { ...context.sent, stage: event.result.stage },
            }),
          },
        ],
        'poll.error': [
          {
            // The server answered: the registration is gone from this device.
            guard: ({ event }) => event.error.code === 'server' || event.error.code === 'rejected',
            target: 'stopped',
            actions: assign({
              error: ({ event }) => withMessage('handoffStopped', event.error.serverMessage),
            }),
          },
          // No answer (the network): keep following, one interval later.
          { target: 'waiting', reenter: true },
        ],
      },
    },
    // The registration is no longer this device's (verified again elsewhere, or expired).
    stopped: { tags: ['error'] },
    // The phone finished the registration: the wizard shows the completion.
    done: { type: 'final' },
  },
});

export type HandoffMachine = typeof handoffMachine;

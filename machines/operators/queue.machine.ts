import { assign, setup } from 'xstate';
import {
  CENTRE_CODE_ALPHABET,
  CENTRE_CODE_LENGTH,
  normalizeCentreCode,
} from '../../contract/cases';
import { claimNext, fetchQueue, lookupCode } from './operators.actors';
import { errorOf, isUnauthorized, operatorErrorFrom } from './operators.errors';
import type { DeskOutput, QueueContext, QueueEvent } from './operators.types';

/**
 * A health-centre code as the operator types it: upper case, only the code's alphabet, at most 8
 * characters, shown XXXX-XXXX (the hyphen appears after the fourth).
 */
export function formatCodeInput(raw: string): string {
  const chars = [...raw.toUpperCase()]
    .filter((c) => CENTRE_CODE_ALPHABET.includes(c))
    .slice(0, CENTRE_CODE_LENGTH)
    .join('');
  return chars.length > 4 ? `${chars.slice(0, 4)}-${chars.slice(4)}` : chars;
}

/**
 * The queue of open cases (oldest first, no personal data), the operator's way into a case:
 * 'Tomar el siguiente' claims the oldest one atomically, 'Buscar por código' opens a health-centre
 * case by its code. It ends with the case to open (or the session found expired).
 */
export const queueMachine = setup({
  types: {
    context: {} as QueueContext,
    events: {} as QueueEvent,
    output: {} as DeskOutput,
    tags: {} as 'busy' | 'error',
  },
  actors: { fetchQueue, claimNext, lookupCode },
  actions: {
    assignError: assign({ error: (args) => operatorErrorFrom(errorOf(args)) }),
  },
  guards: {
    /** a 401 ends the queue: the session is over (the parent shows the login with a notice) */
    isUnauthorized: (args) => isUnauthorized(errorOf(args)),
    isCodeComplete: ({ context }) => normalizeCentreCode(context.code) !== null,
  },
  delays: {
    /** a 429's Retry-After (at least a second) */
    retryAfter: ({ context }) => Math.max(1, context.error?.retryAfterSeconds ?? 30) * 1000,
  },
}).createMachine({
  id: 'operatorQueue',
  context: { cases: [], total: 0, loadedAt: 0, code: '', caseId: null, error: null },
  initial: 'loading',
  output: ({ event }) => event.output as DeskOutput,
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'fetchQueue',
        src: 'fetchQueue',
        onDone: {
          target: 'showing',
          actions: assign({
            cases: ({ event }) => event.output.cases,
            total: ({ event }) => event.output.total,
            loadedAt: () => Date.now(),
            error: null,
          }),
        },
        onError: [
          { guard: 'isUnauthorized', target: 'expired' },
          { target: 'failed', actions: 'assignError' },
        ],
      },
    },
    showing: {
      initial: 'list',
      on: {
        'queue.refresh': 'loading',
        'queue.claim': 'claiming',
        'code.open': { target: 'code', actions: assign({ code: '', error: null }) },
      },
      states: {
        list: {},
        /** 'Tomar el siguiente' found nothing this operator may take. */
        nothingToTake: {},
      },
    },
    claiming: {
      tags: ['busy'],
      invoke: {
        id: 'claimNext',
        src: 'claimNext',
        onDone: [
          {
            guard: ({ event }) => event.output.caseId !== null,
            target: 'taken',
            actions: assign({ caseId: ({ event }) => event.output.caseId }),
          },
          { target: 'showing.nothingToTake' },
        ],
        onError: [
          { guard: 'isUnauthorized', target: 'expired' },
          { target: 'failed', actions: 'assignError' },
        ],
      },
    },
    failed: {
      tags: ['error'],
      on: { 'queue.refresh': 'loading' },
    },
    /** 'Buscar por código': a health-centre case by its code (XXXX-XXXX). */
    code: {
      initial: 'editing',
      on: {
        'code.cancel': '#operatorQueue.loading',
        'code.change': {
          target: '.editing',
          actions: assign({ code: ({ event }) => formatCodeInput(event.value) }),
        },
      },
      states: {
        editing: {
          on: {
            'code.submit': [
              { guard: 'isCodeComplete', target: 'looking', actions: assign({ error: null }) },
              { target: 'incomplete' },
            ],
          },
        },
        /** submitted before the 8 characters were typed */
        incomplete: { tags: ['error'] },
        looking: {
          tags: ['busy'],
          invoke: {
            id: 'lookupCode',
            src: 'lookupCode',
            input: ({ context }) => ({ code: normalizeCentreCode(context.code) ?? '' }),
            onDone: {
              target: '#operatorQueue.taken',
              actions: assign({ caseId: ({ event }) => event.output }),
            },
            onError: [
              { guard: 'isUnauthorized', target: '#operatorQueue.expired' },
              {
                guard: ({ event }) => operatorErrorFrom(event.error).code === 'tooManyAttempts',
                target: 'limited',
                actions: 'assignError',
              },
              { target: 'failed', actions: 'assignError' },
            ],
          },
        },
        failed: {
          tags: ['error'],
          on: { 'code.submit': { guard: 'isCodeComplete', target: 'looking' } },
        },
        /** Too many look-ups: the wait is shown; typing is possible again when it is over. */
        limited: {
          tags: ['error'],
          after: { retryAfter: { target: 'editing', actions: assign({ error: null }) } },
          on: {
            'code.change': {
              actions: assign({ code: ({ event }) => formatCodeInput(event.value) }),
            },
            'code.submit': {},
          },
        },
      },
    },
    taken: {
      type: 'final',
      output: ({ context }) => ({ caseId: context.caseId, expired: false }),
    },
    expired: { type: 'final', output: { caseId: null, expired: true } },
  },
});

export type QueueMachine = typeof queueMachine;

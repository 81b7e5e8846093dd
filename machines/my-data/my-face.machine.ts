import { assign, setup } from 'xstate';
import type { MyFaceCodeResponse, MyFaceResponse } from '../../contract/my-face';
import { toFlowError } from '../shared/errors';
import { myFaceActors } from './my-face.actors';
import type { MyFaceContext, MyFaceEvent } from './my-face.types';

/**
 * 'Mi rostro' (issue 45 item 4), a child of the myData machine (its `face` section invokes it):
 * loads the patient's face, then offers what its state allows. Locking needs no code (it only
 * protects); unlocking sends an SMS code and asks for the PIN and the code; withdrawing the consent
 * asks for the PIN. A failed call comes back to the same form with what was typed, and its error.
 */

type DoneEvent = { output: MyFaceResponse | MyFaceCodeResponse };
const out = (event: unknown) => (event as DoneEvent).output;

export const myFaceMachine = setup({
  types: {} as { context: MyFaceContext; events: MyFaceEvent },
  actors: myFaceActors,
  guards: {
    noFace: ({ context }) => !context.face?.enrolled,
    isLocked: ({ context }) => Boolean(context.face?.locked),
    canUnlock: ({ context }) => /^\d{6}$/.test(context.pin) && /^\d{6}$/.test(context.otp),
    canWithdraw: ({ context }) => /^\d{6}$/.test(context.pin),
  },
  actions: {
    /** The face as the server answered it, and its sentence. */
    answered: assign(({ event }) => ({
      face: out(event).face,
      notice: out(event).message ?? null,
      error: null,
    })),
    codeSent: assign(({ event }) => {
      const o = out(event) as MyFaceCodeResponse;
      return {
        face: o.face,
        notice: o.message,
        resendAfterSeconds: o.resendAfterSeconds,
        error: null,
      };
    }),
    /** The typed PIN and code are forgotten once used (or the form left). */
    forgetTyped: assign({ pin: '', otp: '' }),
    clearError: assign({ error: null }),
    clearNotice: assign({ notice: null }),
    failure: assign({
      error: ({ event }) => toFlowError((event as unknown as { error: unknown }).error),
    }),
    /** A failed submit of the PIN (and code) form: the view focuses the field to fix. */
    submitFailed: assign({ failures: ({ context }) => context.failures + 1 }),
  },
}).createMachine({
  id: 'myFace',
  context: {
    face: null,
    pin: '',
    otp: '',
    notice: null,
    resendAfterSeconds: null,
    error: null,
    failures: 0,
  },
  initial: 'loading',
  on: {
    'pin.change': {
      actions: assign({ pin: ({ event }) => event.value.replace(/\D/g, '').slice(0, 6) }),
    },
    'otp.change': {
      actions: assign({ otp: ({ event }) => event.value.replace(/\D/g, '').slice(0, 6) }),
    },
  },
  states: {
    loading: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        src: 'loadFace',
        onDone: { target: 'shown', actions: 'answered' },
        onError: { target: 'failed', actions: 'failure' },
      },
    },
    failed: {
      tags: ['error'],
      on: { 'face.retry': 'loading' },
    },
    shown: {
      initial: 'routing',
      entry: 'forgetTyped',
      states: {
        routing: {
          always: [
            { guard: 'noFace', target: 'none' },
            { guard: 'isLocked', target: 'locked' },
            { target: 'unlocked' },
          ],
        },
        none: {},
        unlocked: {
          on: {
            'face.lock': { target: '#myFace.locking', actions: ['clearError', 'clearNotice'] },
            'face.withdraw': {
              target: '#myFace.withdrawing',
              actions: ['clearError', 'clearNotice'],
            },
          },
        },
        locked: {
          on: {
            'face.unlock': {
              target: '#myFace.sendingCode',
              actions: ['clearError', 'clearNotice'],
            },
            'face.withdraw': {
              target: '#myFace.withdrawing',
              actions: ['clearError', 'clearNotice'],
            },
          },
        },
      },
    },
    locking: {
      tags: ['busy'],
      invoke: {
        src: 'lockFace',
        onDone: { target: 'shown', actions: 'answered' },
        onError: { target: 'shown', actions: 'failure' },
      },
    },
    sendingCode: {
      tags: ['busy'],
      invoke: {
        src: 'sendCode',
        onDone: { target: 'unlocking', actions: 'codeSent' },
        onError: { target: 'shown', actions: 'failure' },
      },
    },
    unlocking: {
      initial: 'entering',
      on: { 'face.cancel': { target: 'shown', actions: ['clearError', 'clearNotice'] } },
      states: {
        entering: {
          on: {
            'face.submit': { guard: 'canUnlock', target: 'submitting', actions: 'clearError' },
            'face.code.resend': { target: 'resending', actions: 'clearError' },
          },
        },
        submitting: {
          tags: ['busy'],
          invoke: {
            src: 'unlockFace',
            input: ({ context }) => ({ pin: context.pin, otp: context.otp }),
            onDone: { target: '#myFace.shown', actions: 'answered' },
            onError: { target: 'entering', actions: ['failure', 'submitFailed'] },
          },
        },
        resending: {
          tags: ['busy'],
          invoke: {
            src: 'sendCode',
            onDone: { target: 'entering', actions: 'codeSent' },
            onError: { target: 'entering', actions: 'failure' },
          },
        },
      },
    },
    withdrawing: {
      initial: 'confirming',
      on: { 'face.cancel': { target: 'shown', actions: 'clearError' } },
      states: {
        confirming: {
          on: {
            'face.submit': { guard: 'canWithdraw', target: 'submitting', actions: 'clearError' },
          },
        },
        submitting: {
          tags: ['busy'],
          invoke: {
            src: 'withdrawFace',
            input: ({ context }) => ({ pin: context.pin }),
            onDone: { target: '#myFace.withdrawn', actions: ['answered', 'forgetTyped'] },
            onError: { target: 'confirming', actions: ['failure', 'submitFailed'] },
          },
        },
      },
    },
    /** The face was deleted: 'Sin rostro registrado', and what that means. */
    withdrawn: {},
  },
});

export type MyFaceMachine = typeof myFaceMachine;

import { assign } from 'xstate';
import { caseSetup, emptyCase, fieldValue, NOTE_MAX } from './case.setup';
import type { DeskOutput } from './operators.types';

export { NOTE_MAX } from './case.setup';
export { DESK_CAMERA } from './desk.machine';

/** The actions of a case under review (the same whether or not the last attempt failed). */
const reviewActions = {
  'field.edit': {
    guard: 'canDecide',
    target: '#operatorCase.reviewing.correcting',
    actions: 'startCorrection',
  },
  'approve.start': { guard: 'canApprove', target: '#operatorCase.reviewing.confirmingApproval' },
  'reject.start': { guard: 'canDecide', target: '#operatorCase.reviewing.rejecting' },
  'repeat.start': { guard: 'canRepeat', target: '#operatorCase.reviewing.repeating' },
  'desk.start': { guard: 'isCentroToDecide', target: '#operatorCase.reviewing.desk' },
  'case.release': { guard: 'canDecide', target: '#operatorCase.releasing' },
  'case.close': '#operatorCase.closed',
} as const;

/**
 * One case, as an operator works it: the evidence (the selfie's frame beside the card's portrait,
 * front and back, each fetched alone and audited), the fields with their corrections, the engine's
 * reasons and scores, and the decision: approve (after a confirmation), reject (a reason from the
 * list), ask for one step again, or release the claim. A health-centre case ('centro') needs the
 * desk camera's photo of the patient before it can be approved; its face match is a signal. Ends
 * when the operator goes back to the queue (or the session is found expired).
 */
export const caseMachine = caseSetup.createMachine({
  id: 'operatorCase',
  context: ({ input }) => emptyCase(input.caseId),
  // The images' object URLs go with the case (back to the queue, a logout, an expired session).
  invoke: { id: 'imageKeeper', src: 'imageKeeper' },
  output: ({ event }) => event.output as DeskOutput,
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadCase',
        src: 'loadCase',
        input: ({ context }) => ({ caseId: context.caseId }),
        onDone: [
          // Read again because the case changed under an approval: shown, with why.
          {
            guard: 'hadCaseChanged',
            target: 'reviewing.failed',
            actions: [
              assign({
                detail: ({ event }) => event.output.detail,
                images: ({ event }) => event.output.images,
              }),
              'keepImages',
            ],
          },
          {
            target: 'reviewing',
            actions: [
              assign({
                detail: ({ event }) => event.output.detail,
                images: ({ event }) => event.output.images,
                error: null,
              }),
              'keepImages',
            ],
          },
        ],
        onError: [
          { guard: 'isUnauthorized', target: 'expired' },
          { target: 'failed', actions: 'assignError' },
        ],
      },
    },
    failed: {
      tags: ['error'],
      on: { 'case.retry': 'loading', 'case.close': 'closed' },
    },
    reviewing: {
      initial: 'idle',
      states: {
        idle: { on: reviewActions },
        /** the last save, decision, release or upload failed: said, and every action still there */
        failed: { tags: ['error'], on: reviewActions },
        /** 'Corregir': the form (child `correction`), then the correction sent */
        correcting: {
          initial: 'form',
          on: { 'action.cancel': { target: 'idle', actions: assign({ correction: null }) } },
          states: {
            form: {
              invoke: {
                id: 'correction',
                src: 'correction',
                input: ({ context }) => ({
                  correction: context.correction!,
                  current: fieldValue(context, context.correction!.field),
                  refusal: context.error,
                }),
                onSnapshot: { actions: 'noteChild' },
                onDone: {
                  target: 'saving',
                  actions: assign({ correction: ({ event }) => event.output, error: null }),
                },
              },
              on: {
                'correction.change': { actions: 'forwardToCorrection' },
                'correction.submit': { actions: 'forwardToCorrection' },
              },
            },
            saving: {
              tags: ['busy'],
              invoke: {
                id: 'saveCorrection',
                src: 'saveCorrection',
                input: ({ context }) => ({
                  caseId: context.caseId,
                  correction: {
                    ...context.correction!,
                    value: context.correction!.value.trim(),
                    reason: context.correction!.reason.trim(),
                  },
                }),
                onDone: {
                  target: '#operatorCase.reviewing.idle',
                  actions: assign({ detail: ({ event }) => event.output, correction: null }),
                },
                onError: [
                  { guard: 'isUnauthorized', target: '#operatorCase.expired' },
                  // The form again, saying why (its child opens at `refused`).
                  { guard: 'isBadRequest', target: 'form', actions: 'assignError' },
                  { target: '#operatorCase.reviewing.failed', actions: 'assignError' },
                ],
              },
              on: {
                // A change while it is sent: the form again, with the change (the save is dropped).
                'correction.change': {
                  target: 'form',
                  actions: assign({
                    correction: ({ context, event }) =>
                      context.correction && {
                        ...context.correction,
                        ...(event.value !== undefined ? { value: event.value } : {}),
                        ...(event.reason !== undefined ? { reason: event.reason } : {}),
                      },
                    error: null,
                  }),
                },
              },
            },
          },
        },
        /** 'Aprobar' asks once more before it decides */
        confirmingApproval: {
          on: {
            'action.cancel': 'idle',
            // The approval is of the case as shown: its digest goes with it.
            'approve.confirm': {
              target: '#operatorCase.deciding',
              actions: assign({
                decision: ({ context }) => ({
                  decision: 'approve' as const,
                  digest: context.detail!.digest,
                }),
              }),
            },
          },
        },
        /** 'Rechazar': a reason from the list, an optional note */
        rejecting: {
          on: {
            'action.cancel': 'idle',
            'reject.change': {
              actions: assign({
                rejection: ({ context, event }) => ({
                  reason: event.reason !== undefined ? event.reason : context.rejection.reason,
                  note: (event.note ?? context.rejection.note).slice(0, NOTE_MAX),
                }),
              }),
            },
            'reject.confirm': {
              guard: 'hasRejectReason',
              target: '#operatorCase.deciding',
              actions: assign({
                decision: ({ context }) => ({
                  decision: 'reject' as const,
                  reason: context.rejection.reason!,
                  ...(context.rejection.note.trim() ? { note: context.rejection.note.trim() } : {}),
                }),
              }),
            },
          },
        },
        /** 'Pedir que repita': selfie, frente or dorso */
        repeating: {
          on: {
            'action.cancel': 'idle',
            'repeat.choose': { actions: assign({ repeatStep: ({ event }) => event.step }) },
            'repeat.confirm': {
              guard: 'hasRepeatStep',
              target: '#operatorCase.deciding',
              actions: assign({
                decision: ({ context }) => ({
                  decision: 'repeat' as const,
                  step: context.repeatStep!,
                }),
              }),
            },
          },
        },
        /** The desk camera (centro cases, child `desk`): the patient's live photo. */
        desk: {
          invoke: {
            id: 'desk',
            src: 'desk',
            onSnapshot: { actions: 'noteChild' },
            onDone: {
              target: 'uploading',
              actions: assign({ deskPhoto: ({ event }) => event.output }),
            },
          },
          on: {
            'action.cancel': 'idle',
            'desk.capture': { actions: 'forwardToDesk' },
            'camera.retry': { actions: 'forwardToDesk' },
          },
        },
        uploading: {
          tags: ['busy'],
          invoke: {
            id: 'uploadDeskPhoto',
            src: 'uploadDeskPhoto',
            input: ({ context }) => ({ caseId: context.caseId, photo: context.deskPhoto! }),
            onDone: {
              target: 'idle',
              actions: [
                assign({
                  // read again: the new face voided any approval and changed the digest
                  detail: ({ event }) => event.output.detail,
                  deskMatch: ({ event }) => ({
                    faceSimilarity: event.output.faceSimilarity,
                    faceThreshold: event.output.faceThreshold,
                  }),
                  // shown where the selfie would be, beside the card's portrait
                  images: ({ context, event }) => ({ ...context.images, desk: event.output.url }),
                  deskPhoto: null,
                  error: null,
                }),
                'keepImages',
              ],
            },
            onError: [
              { guard: 'isUnauthorized', target: '#operatorCase.expired' },
              { target: 'failed', actions: ['assignError', assign({ deskPhoto: null })] },
            ],
          },
        },
      },
    },
    deciding: {
      tags: ['busy'],
      invoke: {
        id: 'decide',
        src: 'decide',
        input: ({ context }) => ({ caseId: context.caseId, decision: context.decision! }),
        onDone: {
          target: 'decided',
          actions: assign({ outcome: ({ event }) => event.output.outcome, error: null }),
        },
        onError: [
          { guard: 'isUnauthorized', target: 'expired' },
          { guard: 'isCaseChanged', target: 'loading', actions: 'assignError' },
          { target: 'reviewing.failed', actions: 'assignError' },
        ],
      },
    },
    /** The decision is recorded: its outcome, then back to the queue. */
    decided: { on: { 'case.close': 'closed' } },
    releasing: {
      tags: ['busy'],
      invoke: {
        id: 'releaseCase',
        src: 'releaseCase',
        input: ({ context }) => ({ caseId: context.caseId }),
        onDone: 'closed',
        onError: [
          { guard: 'isUnauthorized', target: 'expired' },
          { target: 'reviewing.failed', actions: 'assignError' },
        ],
      },
    },
    closed: { type: 'final', output: { caseId: null, expired: false } },
    expired: { type: 'final', output: { caseId: null, expired: true } },
  },
});

export type CaseMachine = typeof caseMachine;

import { assign, sendTo, setup } from 'xstate';
import type { CameraInput } from '../shared/camera';
import {
  camera,
  decide,
  DESK_CAPTURE,
  frameCapture,
  imageKeeper,
  loadCase,
  releaseCase,
  saveCorrection,
  uploadDeskPhoto,
} from './operators.actors';
import { correctionProblem, correctionStart } from './correction';
import { errorOf, isBadRequest, isUnauthorized, operatorErrorFrom } from './operators.errors';
import type {
  CaseContext,
  CaseEvent,
  CaseInput,
  CorrectableField,
  DeskOutput,
} from './operators.types';

/** The desk's camera looks at the patient across the desk (the front camera of a laptop). */
export const DESK_CAMERA: CameraInput = { facing: 'user', width: 1280, height: 720 };

/** A rejection's note is optional (at most 300 characters). */
export const NOTE_MAX = 300;

const fieldValue = (context: CaseContext, field: CorrectableField) =>
  context.detail?.fields[field] ?? '';

/** The actions of a case under review (the same whether or not the last attempt failed). */
const reviewActions = {
  'field.edit': {
    guard: 'canDecide',
    target: '#operatorCase.reviewing.correcting',
    actions: 'startCorrection',
  },
  'approve.start': { guard: 'canApprove', target: '#operatorCase.reviewing.confirmingApproval' },
  'reject.start': { guard: 'canDecide', target: '#operatorCase.reviewing.rejecting' },
  'repeat.start': { guard: 'canDecide', target: '#operatorCase.reviewing.repeating' },
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
export const caseMachine = setup({
  types: {
    context: {} as CaseContext,
    events: {} as CaseEvent,
    input: {} as CaseInput,
    output: {} as DeskOutput,
    tags: {} as 'busy' | 'error',
  },
  actors: {
    imageKeeper,
    loadCase,
    saveCorrection,
    decide,
    releaseCase,
    camera,
    frameCapture,
    uploadDeskPhoto,
  },
  guards: {
    isUnauthorized: (args) => isUnauthorized(errorOf(args)),
    /** the server refused the correction's value or reason (400): the form says why */
    isBadRequest: (args) => isBadRequest(errorOf(args)),
    /** the case changed since the page showed it: read again, and say so */
    isCaseChanged: (args) => operatorErrorFrom(errorOf(args)).code === 'caseChanged',
    hadCaseChanged: ({ context }) => context.error?.code === 'caseChanged',
    /** this operator holds the claim of a case still open */
    canDecide: ({ context }) =>
      context.detail?.claimedByMe === true && context.detail.status === 'open',
    /**
     * a centro case is approved only after the desk photo; a remote case where nobody saw a card
     * only at a health centre
     */
    canApprove: ({ context }) =>
      context.detail?.claimedByMe === true &&
      context.detail.status === 'open' &&
      context.detail.approvalRule !== 'centre_only' &&
      // A centro case after its desk photo; a remote one with its selfie (it has no desk photo to
      // take: issue 43 item 2).
      (context.detail.kind === 'centro'
        ? context.deskMatch !== null
        : context.detail.images.includes('selfie')),
    isCentroToDecide: ({ context }) =>
      context.detail?.claimedByMe === true &&
      context.detail.status === 'open' &&
      context.detail.kind === 'centro',
    /** the value passes its field's schema (the server's), differs, and has a reason */
    isCorrectionComplete: ({ context }) =>
      context.correction !== null &&
      correctionProblem(context.correction, fieldValue(context, context.correction.field)) === null,
    hasRejectReason: ({ context }) => context.rejection.reason !== null,
    hasRepeatStep: ({ context }) => context.repeatStep !== null,
  },
  actions: {
    assignError: assign({ error: (args) => operatorErrorFrom(errorOf(args)) }),
    clearError: assign({ error: null }),
    startCorrection: assign(({ context, event }) =>
      event.type === 'field.edit'
        ? {
            correction: {
              field: event.field,
              value: correctionStart(event.field, fieldValue(context, event.field)),
              reason: '',
            },
            error: null,
          }
        : {},
    ),
    clearStream: assign({ stream: null }),
    keepImages: sendTo('imageKeeper', ({ context }) => ({
      type: 'images.keep' as const,
      images: context.images,
    })),
  },
}).createMachine({
  id: 'operatorCase',
  context: ({ input }) => ({
    caseId: input.caseId,
    detail: null,
    images: {},
    correction: null,
    rejection: { reason: null, note: '' },
    repeatStep: null,
    decision: null,
    outcome: null,
    stream: null,
    cameraError: null,
    deskPhoto: null,
    deskMatch: null,
    error: null,
  }),
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
        /** 'Corregir': the new value and the reason (both required) */
        correcting: {
          initial: 'editing',
          on: {
            'action.cancel': { target: 'idle', actions: assign({ correction: null }) },
            'correction.change': {
              target: '.editing',
              actions: assign({
                correction: ({ context, event }) =>
                  context.correction && {
                    ...context.correction,
                    ...(event.value !== undefined ? { value: event.value } : {}),
                    ...(event.reason !== undefined ? { reason: event.reason } : {}),
                  },
              }),
            },
          },
          states: {
            editing: {
              on: {
                'correction.submit': [
                  { guard: 'isCorrectionComplete', target: 'saving' },
                  { target: 'incomplete' },
                ],
              },
            },
            /** submitted with a value its field's rule refuses, the same value, or no reason */
            incomplete: { tags: ['error'] },
            /** the server refused it (400): its sentence says why; the form stays */
            refused: { tags: ['error'] },
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
                  { guard: 'isBadRequest', target: 'refused', actions: 'assignError' },
                  { target: '#operatorCase.reviewing.failed', actions: 'assignError' },
                ],
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
        /** The desk camera (centro cases): the patient's live photo at the health centre. */
        desk: {
          invoke: { id: 'camera', src: 'camera', input: DESK_CAMERA },
          exit: 'clearStream',
          initial: 'opening',
          on: {
            'action.cancel': 'idle',
            'camera.error': {
              target: '.cameraFailed',
              actions: assign({ cameraError: ({ event }) => event.code }),
            },
            'camera.released': { target: '.opening', actions: 'clearStream' },
          },
          states: {
            opening: {
              on: {
                'camera.ready': {
                  target: 'live',
                  actions: assign({ stream: ({ event }) => event.stream, cameraError: null }),
                },
              },
            },
            live: { on: { 'desk.capture': 'capturing' } },
            capturing: {
              tags: ['busy'],
              invoke: {
                id: 'frameCapture',
                src: 'frameCapture',
                input: ({ context }) => ({ stream: context.stream!, options: DESK_CAPTURE }),
                onDone: {
                  target: '#operatorCase.reviewing.uploading',
                  actions: assign({ deskPhoto: ({ event }) => event.output }),
                },
                onError: { target: 'live', actions: 'assignError' },
              },
            },
            cameraFailed: {
              tags: ['error'],
              on: {
                'camera.ready': {
                  target: 'live',
                  actions: assign({ stream: ({ event }) => event.stream, cameraError: null }),
                },
                'camera.retry': {
                  actions: ({ self }) =>
                    self.getSnapshot().children.camera?.send({ type: 'camera.retry' }),
                },
              },
            },
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

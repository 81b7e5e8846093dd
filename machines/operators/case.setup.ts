import { assign, forwardTo, sendTo, setup } from 'xstate';
import {
  decide,
  imageKeeper,
  loadCase,
  releaseCase,
  saveCorrection,
  uploadDeskPhoto,
} from './operators.actors';
import { correctionStart } from './correction';
import { correctionMachine } from './correction.machine';
import { deskMachine } from './desk.machine';
import { errorOf, isBadRequest, isUnauthorized, operatorErrorFrom } from './operators.errors';
import type {
  CaseContext,
  CaseEvent,
  CaseInput,
  CorrectableField,
  DeskOutput,
} from './operators.types';

/** A rejection's note is optional (at most 300 characters). */
export const NOTE_MAX = 300;

/** A case's context before anything is loaded or decided (the machine's start, the fixtures' base). */
export const emptyCase = (caseId: string): CaseContext => ({
  caseId,
  detail: null,
  images: {},
  correction: null,
  rejection: { reason: null, note: '' },
  repeatStep: null,
  decision: null,
  outcome: null,
  deskPhoto: null,
  deskMatch: null,
  error: null,
});

export const fieldValue = (context: CaseContext, field: CorrectableField) =>
  context.detail?.fields[field] ?? '';

/**
 * The case's types, actors (its children among them: the correction form, the desk camera),
 * guards and actions; case.machine.ts puts its states together.
 */
export const caseSetup = setup({
  types: {
    context: {} as CaseContext,
    events: {} as CaseEvent,
    input: {} as CaseInput,
    output: {} as DeskOutput,
    tags: {} as 'busy' | 'error',
    children: {} as {
      imageKeeper: 'imageKeeper';
      loadCase: 'loadCase';
      correction: 'correction';
      saveCorrection: 'saveCorrection';
      decide: 'decide';
      releaseCase: 'releaseCase';
      desk: 'desk';
      uploadDeskPhoto: 'uploadDeskPhoto';
    },
  },
  actors: {
    imageKeeper,
    loadCase,
    correction: correctionMachine,
    saveCorrection,
    decide,
    releaseCase,
    desk: deskMachine,
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
     * a step asked again: not on a 'posible duplicado' (issue 44 item 3) nor a patient's correction
     * (issue 45 item 5): approved or rejected
     */
    canRepeat: ({ context }) =>
      context.detail?.claimedByMe === true &&
      context.detail.status === 'open' &&
      context.detail.kind !== 'duplicate' &&
      context.detail.kind !== 'correction',
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
      // A patient's correction (issue 45 item 5) enrols no face: the rule alone says.
      (context.detail.kind === 'centro'
        ? context.deskMatch !== null
        : context.detail.kind === 'correction' || context.detail.images.includes('selfie')),
    isCentroToDecide: ({ context }) =>
      context.detail?.claimedByMe === true &&
      context.detail.status === 'open' &&
      context.detail.kind === 'centro',
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
    /**
     * A child's state changed (the correction form, the desk camera): a new snapshot of the case,
     * so a view that selects through it (operators.selectors.ts reads the child) renders again.
     */
    noteChild: assign({}),
    forwardToCorrection: forwardTo('correction'),
    forwardToDesk: forwardTo('desk'),
    keepImages: sendTo('imageKeeper', ({ context }) => ({
      type: 'images.keep' as const,
      images: context.images,
    })),
  },
});

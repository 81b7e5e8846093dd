import { assign, sendParent } from 'xstate';
import { assistFrom, assistState, hasResumedCase, resumeApproved } from './kyc.assist';
import { claimAssist, claimOf, claimWith, emptyClaim } from './kyc.claim';
import { documentState, selfieState } from './kyc.capture';
import { documentErrorOf, kycErrorFrom } from './kyc.errors';
import { DEFAULT_LIVENESS_MS, initialKycContext, kycSetup } from './kyc.setup';
import { isCameraMissing } from '../shared/camera';
import type { HandoffStartEvent, KycError } from './kyc.types';

/** verifying's answer (done or error) as the failure it shows: the params of `assignFailure`. */
const documentError = ({ event }: { event: object }): KycError => documentErrorOf(event);

/**
 * A refused document, by its code: the photos it asks for again (the session goes on), else the
 * failure screen, whose 'Reintentar' starts a new attempt at the selfie.
 */
const documentRefused = [
  ...(['front', 'both', 'back'] as const).map((retake) => ({
    guard: { type: 'isRetake', params: { retake } } as const,
    target: '#kyc.document',
    actions: [
      { type: 'assignFailure', params: documentError } as const,
      { type: 'retake', params: { retake } } as const,
    ],
  })),
  { target: '#kyc.rejected', actions: { type: 'assignFailure', params: documentError } as const },
];

/** The supplementary form's events, for its child. */
const toSupplementary = { actions: 'forwardToSupplementary' } as const;

/**
 * The wizard's identity step (step 4): a session (created when absent, 'Cargando...'), then
 * selfie (blink liveness) -> frontal -> dorso -> document verification -> review ->
 * supplementary (its own child machine), ending with `{ sessionId, kycResult, supplementaryData }`
 * for the wizard's register call. A refused document says why, by the server's reason code, and
 * asks again for the photos at fault (the front, the back or both); refusals that need a new attempt
 * land in `rejected` ('No pudimos validar tu identidad'), whose 'Reintentar' starts again at the
 * selfie with every capture cleared and a new session. Camera, frame capture and liveness polling
 * are actors of the states that show them; failures are mapped in kyc.errors.ts.
 */
export const kycMachine = kycSetup.createMachine({
  id: 'kyc',
  context: ({ input }) =>
    initialKycContext(input?.sessionId ?? null, DEFAULT_LIVENESS_MS, input ?? {}),
  initial: 'starting',
  on: {
    // The wizard leaves the identity step for the phone (the view offers it where canHandoff).
    'handoff.start': {
      guard: ({ context }) => context.canHandoff,
      actions: sendParent(({ context }): HandoffStartEvent => ({
        type: 'handoff.start',
        cameraMissing: isCameraMissing(context.cameraError),
      })),
    },
  },
  states: {
    starting: {
      meta: { insight: { step: 'selfie' } },
      tags: ['busy'],
      entry: 'clearError',
      // A resumed registration's case (issue 30): shown at once, no KYC session needed.
      always: { guard: hasResumedCase, target: 'assist' },
      invoke: {
        id: 'ensureSession',
        src: 'ensureSession',
        input: ({ context }) => ({
          sessionId: context.sessionId,
          registrationToken: context.registrationToken,
        }),
        onDone: [
          {
            // A resumed registration whose selfie passed: on to the document.
            guard: ({ context }) => context.resume?.at === 'document',
            target: 'document',
            actions: [
              { type: 'assignSession', params: ({ event }) => event.output },
              'assignResumedDocument',
            ],
          },
          {
            // Its document was read: the review of what the session read.
            guard: ({ context }) => context.resume?.at === 'review',
            target: 'review',
            actions: [
              { type: 'assignSession', params: ({ event }) => event.output },
              assign(({ context }) => ({
                kycResult: context.resume?.at === 'review' ? context.resume.kycResult : null,
                resume: null,
                resumedHere: true,
              })),
            ],
          },
          resumeApproved,
          {
            target: 'selfie',
            actions: [
              { type: 'assignSession', params: ({ event }) => event.output },
              'assignResumedSelfie',
            ],
          },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'assignFailure', params: ({ event }) => kycErrorFrom(event.error) },
        },
      },
    },
    failed: {
      meta: { insight: { step: 'selfie' } },
      tags: ['error'],
      on: { 'kyc.retry': 'starting' },
    },
    selfie: selfieState,
    // Front ('frontal') then back ('dorso'): live camera, then preview (spec 4, Document capture).
    document: documentState,
    verifying: {
      meta: { insight: { step: 'document' } },
      tags: ['busy'],
      entry: assign({ stream: null, error: null }),
      invoke: {
        id: 'verifyDocuments',
        src: 'verifyDocuments',
        // One side only after a person asked for it: the server keeps the other.
        input: ({ context }) => ({
          sessionId: context.sessionId!,
          front: context.front,
          back: context.back,
        }),
        onDone: [
          {
            // In a registration: is this cédula already a patient's? Said now (issue 29 item 10).
            guard: ({ context, event }) =>
              event.output.success &&
              event.output.kyc_complete &&
              context.registrationToken !== null,
            target: 'checkingDocument',
            actions: assign({ kycResult: ({ event }) => event.output }),
          },
          {
            guard: ({ event }) => event.output.success && event.output.kyc_complete,
            target: 'review',
            actions: assign({ kycResult: ({ event }) => event.output }),
          },
          ...documentRefused,
        ],
        onError: [
          {
            // Nothing wrong with the photos: back to the preview of the back, to send them again.
            guard: 'isTransientScanError',
            target: '#kyc.document.preview',
            actions: { type: 'assignFailure', params: documentError },
          },
          ...documentRefused,
        ],
      },
    },
    // The card is read: still 'Verificando tu identidad' while the server looks its number up.
    checkingDocument: {
      meta: { insight: { step: 'document' } },
      tags: ['busy'],
      invoke: {
        id: 'checkDocument',
        src: 'checkDocument',
        input: ({ context }) => ({
          registrationToken: context.registrationToken!,
          sessionId: context.sessionId!,
        }),
        onDone: [
          { guard: ({ event }) => event.output, target: 'documentRegistered' },
          { target: 'review' },
        ],
        // No answer: the review; the register call still refuses a registered cédula.
        onError: 'review',
      },
    },
    // 'Ya tenés una cuenta con esta cédula': log in, recover the PIN, or ask for help. Nothing
    // goes on from here in this registration (the view's links leave it).
    documentRegistered: {
      meta: { insight: { step: 'document', fails: 'patientExists' } },
      tags: ['error'],
    },
    // 'No pudimos validar tu identidad': the message, the tips and 'Reintentar'.
    rejected: {
      meta: { insight: { step: 'document' } },
      tags: ['error'],
      on: {
        'kyc.retry': { target: 'starting', actions: 'resetAttempt' },
        ...assistFrom('rejected'),
      },
    },
    // The way out (issue 30): a person, or a health centre (the `assist` child).
    assist: assistState,
    review: {
      meta: { insight: { step: 'review' } },
      initial: 'showing',
      states: {
        showing: {
          // A resumed registration's notice goes with its first screen (issue 29 item 13).
          exit: assign({ resumedHere: false }),
          on: {
            'review.confirm': '#kyc.supplementary',
            'review.retry': 'rejecting',
            'review.claim': { target: 'claiming', actions: assign({ claim: emptyClaim }) },
          },
        },
        // 'Hay un dato mal' (issue 43 item 7): the field the patient says was read wrong and,
        // optionally, what it should say, sent to a person as a review case carrying their claim.
        claiming: {
          on: {
            'claim.field': { actions: assign({ claim: claimWith }) },
            'claim.says': { actions: assign({ claim: claimWith }) },
            'claim.send': {
              guard: ({ context }) => claimOf(context.claim) !== null,
              target: '#kyc.assist',
              actions: assign({ assist: claimAssist }),
            },
            'claim.cancel': { target: 'showing', actions: assign({ claim: null }) },
          },
        },
        rejecting: {
          tags: ['busy'],
          invoke: {
            id: 'rejectKyc',
            src: 'rejectKyc',
            input: ({ context }) => ({ sessionId: context.sessionId! }),
            onDone: { target: '#kyc.starting', actions: 'resetAttempt' },
            onError: {
              target: 'rejectFailed',
              actions: assign({ error: { code: 'rejectFailed' } }),
            },
          },
        },
        rejectFailed: {
          tags: ['error'],
          on: {
            'review.confirm': '#kyc.supplementary',
            'review.retry': 'rejecting',
          },
        },
      },
    },
    // 'Datos complementarios': the child owns the form; its answers end the identity step.
    supplementary: {
      meta: { insight: { step: 'supplementary' } },
      entry: 'clearError',
      invoke: {
        id: 'supplementary',
        src: 'supplementary',
        input: ({ context }) => ({
          form: context.form,
          hasDocumentNumber: Boolean(context.kycResult?.id_data?.DocumentNumber.trim()),
        }),
        onDone: { target: 'done', actions: assign({ form: ({ event }) => event.output }) },
      },
      on: {
        'blood.change': toSupplementary,
        'address.change': toSupplementary,
        'department.change': toSupplementary,
        'city.change': toSupplementary,
        'places.retry': toSupplementary,
        'supplementary.submit': toSupplementary,
      },
    },
    done: {
      type: 'final',
      entry: assign({ stream: null }),
    },
  },
  output: ({ context }) => ({
    sessionId: context.sessionId ?? '',
    kycResult: context.kycResult ?? { success: false, kyc_complete: false },
    supplementaryData: { ...context.form },
  }),
});

export type KycMachine = typeof kycMachine;

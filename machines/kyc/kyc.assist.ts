import { assign } from 'xstate';
import type { CaseStatus } from '../../contract/cases';
import { assistErrorFrom, isAssistError } from './kyc.assist.actors';
import type { AssistBack, AssistRequest } from './kyc.assist.types';
import { caseStepOf, repeatedRefusal, triggerOf } from './kyc.errors';
import { claimInput } from './kyc.claim';
import { kycSetup } from './kyc.setup';
import type { KycContext, KycSession } from './kyc.types';

/**
 * The patient's way out of the identity step (issue 30): 'No puedo completar este paso' on every
 * identity step opens the offer; a refusal repeated offers it on its own screen. The offer opens a
 * case: a person reviews it ('Que lo revise una persona') or the patient verifies at a health centre
 * with a code ('Verificar en un centro de salud'). A resumed registration with a case shows it here.
 * Failures of these calls are kept in `assistError` (the identity step's `error` stays the refusal
 * the patient had, for 'Volver' and for journey insight).
 */

type Args = { context: KycContext; event: object };

/** What the patient asked for, from the step they left (`back`) and what that step showed. */
function requestFrom(back: AssistBack, { context, event }: Args): AssistRequest {
  const chosen = (event as { type: string }).type === 'assist.open';
  return {
    // A refusal the screen showed names the case even when the patient asked by choice: the
    // server decides from it who may approve (faces that differ need a supervisor).
    trigger: triggerOf(context) ?? 'patient_choice',
    step: caseStepOf(back, context),
    back: chosen ? back : null,
    kind: (event as { kind?: AssistRequest['kind'] }).kind ?? null,
  };
}

/**
 * The way out from an identity step (`back`: where 'Volver' returns): the offer by choice, or the
 * case straight away from a refusal repeated (its screen shows the two choices).
 */
export const assistFrom = (back: AssistBack) =>
  ({
    'assist.open': {
      target: '#kyc.assist.offer',
      actions: { type: 'assignAssist', params: (a: Args) => requestFrom(back, a) },
    },
    'assist.choose': {
      guard: ({ context }: Args) => repeatedRefusal(context) !== null,
      target: '#kyc.assist.opening',
      actions: { type: 'assignAssist', params: (a: Args) => requestFrom(back, a) },
    },
  }) as const;

/** The case a transition goes to: an answer's, or the one kept. */
const answered = ({ event }: Args) =>
  'output' in event ? (event.output as CaseStatus | null) : null;
const kept = ({ context }: Args) => context.case;

/**
 * The case's screen from its status (after opening it, reading it, or a resume); with no case (the
 * server kept none) the offer again, unless `orOffer` is false.
 */
export const showCase = (caseOf: (args: Args) => CaseStatus | null, orOffer = true) =>
  [
    {
      guard: (a: Args) => caseOf(a)?.status === 'open' && caseOf(a)?.kind === 'centro',
      target: '#kyc.assist.case.centre',
    },
    { guard: (a: Args) => caseOf(a)?.status === 'open', target: '#kyc.assist.case.waiting' },
    { guard: (a: Args) => caseOf(a)?.status === 'rejected', target: '#kyc.assist.case.rejected' },
    { guard: (a: Args) => caseOf(a)?.status === 'expired', target: '#kyc.assist.case.expired' },
    { guard: (a: Args) => caseOf(a) !== null, target: '#kyc.assist.case.decided' },
    ...(orOffer ? [{ target: '#kyc.assist.offer' }] : []),
  ].map((t) => ({ ...t, actions: { type: 'assignCase' as const, params: caseOf } }));

/** Another case (a new code, a review, the centre instead), for the same trigger and step. */
const choose = (
  allowed: (a: Args) => boolean = () => true,
  target: '#kyc.assist.opening' | '#kyc.assist.keepingFront' = '#kyc.assist.opening',
) => ({
  guard: allowed,
  target,
  actions: {
    type: 'assignAssist' as const,
    params: ({ context, event }: Args): AssistRequest => ({
      trigger: context.assist?.trigger ?? context.case?.trigger ?? 'patient_choice',
      step: context.assist?.step ?? 'selfie',
      back: context.assist?.back ?? null,
      kind: (event as { kind?: AssistRequest['kind'] }).kind ?? null,
    }),
  },
});

/**
 * The front was taken and accepted, the back not yet, and nothing was sent (no scan answered this
 * attempt): the patient asks for a person on the back (issue 43 item 1). The front goes to the
 * server first, so the case has it.
 */
const hasUnsentFront = ({ context }: Args) =>
  context.case === null &&
  context.sessionId !== null &&
  context.assist?.step === 'back' &&
  context.side === 'back' &&
  context.front !== null &&
  context.retakeOnly === null &&
  !context.error?.reason;
const chosenKind = (a: Args) => (a.event as { kind?: string }).kind;
const failure = ({ event }: Args) => assistErrorFrom('error' in event ? event.error : undefined);

/** Resuming after a person's decision: they verified the identity (the complementary data). */
export const resumeApproved = {
  guard: ({ context }: Args) => context.resume?.at === 'supplementary',
  target: '#kyc.supplementary',
  actions: [
    {
      type: 'assignSession' as const,
      params: (a: Args) => (a.event as { output: KycSession }).output,
    },
    'assignResumedApproval' as const,
  ],
};

export const assistState = kycSetup.createStateConfig({
  entry: 'clearStream',
  initial: 'offer',
  states: {
    // 'Que lo revise una persona', 'Verificar en un centro de salud', and 'Volver' when chosen.
    offer: {
      on: {
        'assist.choose': [choose(hasUnsentFront, '#kyc.assist.keepingFront'), choose()],
        'assist.back': [
          { guard: ({ context }) => context.assist?.back === 'selfie', target: '#kyc.selfie' },
          { guard: ({ context }) => context.assist?.back === 'document', target: '#kyc.document' },
          { guard: ({ context }) => context.assist?.back === 'rejected', target: '#kyc.rejected' },
        ],
      },
    },
    // The front taken on this attempt, sent alone so the server keeps it for the case; whatever
    // the answer (refused 'back_missing', offline), the case opens.
    keepingFront: {
      tags: ['busy'],
      invoke: {
        id: 'keepFront',
        src: 'keepFront',
        input: ({ context }) => ({ sessionId: context.sessionId!, front: context.front! }),
        onDone: 'opening',
        onError: 'opening',
      },
    },
    opening: {
      tags: ['busy'],
      invoke: {
        id: 'openCase',
        src: 'openCase',
        input: ({ context }) => ({
          registrationToken: context.registrationToken ?? '',
          kind: context.assist?.kind ?? 'review',
          trigger: context.assist?.trigger ?? 'patient_choice',
          step: context.assist?.step ?? 'selfie',
          // The field the patient says was read wrong, when the case comes from the review.
          ...claimInput(context),
        }),
        onDone: showCase(answered),
        onError: [
          {
            // A person took the review meanwhile: it stays a review (said on its screen).
            guard: ({ event }) => isAssistError(event.error, 'caseTaken'),
            target: '#kyc.assist.case.waiting',
            actions: { type: 'assignAssistError', params: { code: 'caseTaken' } },
          },
          {
            // Decided meanwhile: its status says how.
            guard: ({ event }) => isAssistError(event.error, 'caseDecided'),
            target: '#kyc.assist.case.refreshing',
          },
          {
            target: 'openFailed',
            actions: { type: 'assignAssistError', params: failure },
          },
        ],
      },
    },
    // Offline or refused: 'Reintentar' sends the same request (nothing is lost); 'Volver' to the
    // case kept, or to the offer.
    openFailed: {
      tags: ['error'],
      on: { 'assist.retry': 'opening', 'assist.back': showCase(kept) },
    },
    case: {
      // A case opened is the journey's own end (the assisted path).
      meta: { insight: { end: 'assisted' } },
      // A resumed registration's case is shown: used once.
      entry: assign({ resume: null }),
      initial: 'waiting',
      states: {
        // A review, open: when to expect an answer, the SMS; 'Actualizar'; or the centre instead.
        waiting: {
          on: {
            'case.refresh': 'refreshing',
            'assist.choose': choose((a) => chosenKind(a) === 'centro'),
          },
        },
        refreshing: {
          tags: ['busy'],
          invoke: {
            id: 'readCaseStatus',
            src: 'readCaseStatus',
            input: ({ context }) => ({ registrationToken: context.registrationToken ?? '' }),
            onDone: showCase(answered),
            onError: {
              target: 'refreshFailed',
              actions: { type: 'assignAssistError', params: failure },
            },
          },
        },
        refreshFailed: {
          tags: ['error'],
          on: {
            'case.refresh': 'refreshing',
            'assist.choose': choose((a) => chosenKind(a) === 'centro'),
          },
        },
        // A centre code: the code, its deadline, and the health centres by department.
        centre: {
          initial: 'loading',
          on: { 'centre.department': { actions: 'assignDepartment' } },
          states: {
            loading: {
              tags: ['busy'],
              invoke: {
                id: 'loadCentres',
                src: 'loadCentres',
                onDone: {
                  target: 'showing',
                  actions: { type: 'assignCentres', params: ({ event }) => event.output },
                },
                onError: {
                  target: 'loadFailed',
                  actions: { type: 'assignAssistError', params: { code: 'centresFailed' } },
                },
              },
            },
            showing: {},
            loadFailed: {
              tags: ['error'],
              on: {
                'assist.retry': {
                  target: 'loading',
                  actions: { type: 'assignAssistError', params: null },
                },
              },
            },
          },
        },
        // Rejected: the reason, and the health centre when a person rejected a review.
        rejected: {
          on: {
            'assist.choose': choose(
              (a) => chosenKind(a) === 'centro' && a.context.case?.kind === 'review',
            ),
          },
        },
        // A centre code past its deadline: a new code or a review.
        expired: { on: { 'assist.choose': choose() } },
        // Approved or a step to repeat, seen by 'Actualizar': the SMS link continues.
        decided: {},
      },
    },
  },
});

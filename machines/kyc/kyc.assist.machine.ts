import { assign, setup } from 'xstate';
import type { CaseStatus, CentresResponse } from '../../contract/cases';
import type { InsightStateMeta } from '../insight/meta';
import {
  assistErrorFrom,
  isAssistError,
  keepFront,
  loadCentres,
  openCase,
  readCaseStatus,
} from './kyc.assist.actors';
import type {
  AssistContext,
  AssistError,
  AssistEvent,
  AssistInput,
  AssistOutput,
  AssistRequest,
} from './kyc.assist.types';

/**
 * The patient's way out of the identity step (issue 30), a child of the KYC machine (which enters
 * it as kyc.assist.ts says): the offer ('Que lo revise una persona', 'Verificar en un centro de
 * salud', 'Volver' when chosen) opens a case, a person's review or a health-centre code; a resumed
 * registration's case shows at once. Failures of its calls are kept in `assistError` (the KYC's own
 * `error` stays the refusal the patient had). 'Volver' from the offer ends it with the step to go
 * back to (`output.back`); the case's screens are the journey's end (the answer comes by SMS).
 */

type Args = { context: AssistContext; event: object };

/** The case a transition goes to: an answer's, or the one kept. */
const answered = ({ event }: Args) =>
  'output' in event ? (event.output as CaseStatus | null) : null;
const kept = ({ context }: Args) => context.case;

/**
 * The case's screen from its status (after opening it, reading it, or a resume); with no case (the
 * server kept none) the offer again, unless `orOffer` is false.
 */
const showCase = (caseOf: (args: Args) => CaseStatus | null, orOffer = true) =>
  [
    {
      guard: (a: Args) => caseOf(a)?.status === 'open' && caseOf(a)?.kind === 'centro',
      target: '#kycAssist.case.centre',
    },
    { guard: (a: Args) => caseOf(a)?.status === 'open', target: '#kycAssist.case.waiting' },
    { guard: (a: Args) => caseOf(a)?.status === 'rejected', target: '#kycAssist.case.rejected' },
    { guard: (a: Args) => caseOf(a)?.status === 'expired', target: '#kycAssist.case.expired' },
    { guard: (a: Args) => caseOf(a) !== null, target: '#kycAssist.case.decided' },
    ...(orOffer ? [{ target: '#kycAssist.offer' }] : []),
  ].map((t) => ({ ...t, actions: { type: 'assignCase' as const, params: caseOf } }));

/** Another case (a new code, a review, the centre instead), for the same trigger and step. */
const choose = (
  allowed: (a: Args) => boolean = () => true,
  target: '#kycAssist.opening' | '#kycAssist.keepingFront' = '#kycAssist.opening',
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
 * The front was taken and accepted, the back not yet, and nothing was sent (`unsentFront`): the
 * patient asks for a person on the back (issue 43 item 1). The front goes to the server first, so
 * the case has it.
 */
const hasUnsentFront = ({ context }: Args) =>
  context.case === null && context.unsentFront !== null && context.assist?.step === 'back';
const chosenKind = (a: Args) => (a.event as { kind?: string }).kind;
const failure = ({ event }: Args) => assistErrorFrom('error' in event ? event.error : undefined);

export const assistMachine = setup({
  types: {
    meta: {} as InsightStateMeta,
    context: {} as AssistContext,
    events: {} as AssistEvent,
    input: {} as AssistInput,
    output: {} as AssistOutput,
    tags: {} as 'busy' | 'error',
    children: {} as {
      keepFront: 'keepFront';
      openCase: 'openCase';
      readCaseStatus: 'readCaseStatus';
      loadCentres: 'loadCentres';
    },
  },
  actors: { keepFront, openCase, readCaseStatus, loadCentres },
  actions: {
    /** the way out asked for (issue 30): which case, why, on which step */
    assignAssist: assign((_, assist: AssistRequest) => ({ assist, assistError: null })),
    /** the registration's case as the server answered it */
    assignCase: assign((_, found: CaseStatus | null) => ({ case: found, assistError: null })),
    assignAssistError: assign((_, assistError: AssistError | null) => ({ assistError })),
    assignCentres: assign((_, centres: CentresResponse) => ({ centres })),
    /** the health centres of this department show */
    assignDepartment: assign({
      department: ({ event }) => (event.type === 'centre.department' ? event.departamento : null),
    }),
  },
}).createMachine({
  id: 'kycAssist',
  context: ({ input }) => ({ ...input, centres: null, department: null, assistError: null }),
  initial: 'start',
  states: {
    // Never at rest: a resumed registration's case shows at once; a kind chosen (on a refusal's
    // screen, or a review's claim) opens the case; else the offer.
    start: {
      always: [
        ...showCase(kept, false),
        { guard: ({ context }) => context.assist?.kind != null, target: 'opening' },
        { target: 'offer' },
      ],
    },
    // 'Que lo revise una persona', 'Verificar en un centro de salud', and 'Volver' when chosen.
    offer: {
      on: {
        'assist.choose': [choose(hasUnsentFront, '#kycAssist.keepingFront'), choose()],
        'assist.back': { guard: ({ context }) => context.assist?.back != null, target: 'left' },
      },
    },
    // The front taken on this attempt, sent alone so the server keeps it for the case; whatever
    // the answer (refused 'back_missing', offline), the case opens.
    keepingFront: {
      tags: ['busy'],
      invoke: {
        id: 'keepFront',
        src: 'keepFront',
        input: ({ context }) => context.unsentFront!,
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
          registrationToken: context.registrationToken,
          kind: context.assist?.kind ?? 'review',
          trigger: context.assist?.trigger ?? 'patient_choice',
          step: context.assist?.step ?? 'selfie',
          // The field the patient says was read wrong, when the case comes from the review.
          ...(context.claim ? { claim: context.claim } : {}),
        }),
        onDone: showCase(answered),
        onError: [
          {
            // A person took the review meanwhile: it stays a review (said on its screen).
            guard: ({ event }) => isAssistError(event.error, 'caseTaken'),
            target: '#kycAssist.case.waiting',
            actions: { type: 'assignAssistError', params: { code: 'caseTaken' } },
          },
          {
            // Decided meanwhile: its status says how.
            guard: ({ event }) => isAssistError(event.error, 'caseDecided'),
            target: '#kycAssist.case.refreshing',
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
            input: ({ context }) => ({ registrationToken: context.registrationToken }),
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
    // 'Volver' from the offer: the KYC machine goes back to the step the patient left.
    left: { type: 'final' },
  },
  // `left` is reached only with a step to go back to (the guard of 'assist.back').
  output: ({ context }) => ({ back: context.assist?.back ?? 'selfie' }),
});

export type AssistMachine = typeof assistMachine;

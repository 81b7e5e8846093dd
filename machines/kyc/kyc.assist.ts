import { assign } from 'xstate';
import type { AssistBack, AssistInput, AssistRequest } from './kyc.assist.types';
import { caseStepOf, repeatedRefusal, triggerOf } from './kyc.errors';
import { claimOf } from './kyc.claim';
import { kycSetup } from './kyc.setup';
import type { KycContext, KycSession } from './kyc.types';

/**
 * How the identity step enters and leaves its way out (issue 30), the `assist` child
 * (kyc.assist.machine.ts): 'No puedo completar este paso' on every identity step opens the offer; a
 * refusal repeated offers the two choices on its own screen and opens the case at once; a resumed
 * registration with a case shows it. 'Volver' from the offer ends the child: back to the step left.
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
      target: '#kyc.assist',
      actions: { type: 'assignAssist', params: (a: Args) => requestFrom(back, a) },
    },
    'assist.choose': {
      guard: ({ context }: Args) => repeatedRefusal(context) !== null,
      target: '#kyc.assist',
      actions: { type: 'assignAssist', params: (a: Args) => requestFrom(back, a) },
    },
  }) as const;

/** A resumed registration's case (issue 30): shown at once, no KYC session needed. */
export const hasResumedCase = ({ context }: { context: KycContext }) =>
  context.resume?.at === 'case';

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

/**
 * The child's input: the way out asked for, the resumed case, and what the case needs from the
 * identity step (its registration, the front not sent yet, the review's claim).
 */
export function assistInput(context: KycContext): AssistInput {
  const { sessionId, front } = context;
  // The front taken and accepted on this attempt, the back not yet, and no scan answered it.
  const unsent =
    sessionId !== null &&
    front !== null &&
    context.side === 'back' &&
    context.retakeOnly === null &&
    !context.error?.reason;
  return {
    registrationToken: context.registrationToken ?? '',
    assist: context.assist,
    case: context.resume?.at === 'case' ? context.resume.case : null,
    unsentFront: unsent ? { sessionId, front } : null,
    claim: claimOf(context.claim),
  };
}

/** The way out's events, for its child. */
const toAssist = { actions: 'forwardToAssist' } as const;

export const assistState = kycSetup.createStateConfig({
  entry: 'clearStream',
  invoke: {
    id: 'assist',
    src: 'assist',
    input: ({ context }) => assistInput(context),
    // 'Volver' from the offer: the step the patient left.
    onDone: [
      { guard: ({ event }) => event.output.back === 'selfie', target: 'selfie' },
      { guard: ({ event }) => event.output.back === 'document', target: 'document' },
      { guard: ({ event }) => event.output.back === 'rejected', target: 'rejected' },
    ],
  },
  // A resumed registration's case is the child's input: used once.
  always: { guard: hasResumedCase, actions: assign({ resume: null }) },
  on: {
    'assist.choose': toAssist,
    'assist.back': toAssist,
    'assist.retry': toAssist,
    'case.refresh': toAssist,
    'centre.department': toAssist,
  },
});

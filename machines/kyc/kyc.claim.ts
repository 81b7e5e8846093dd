import { CLAIM_SAYS_MAX, type PatientClaim } from '../../contract/cases';
import { CONTROL_CHARACTER } from '../../contract/common';
import type { AssistRequest } from './kyc.assist.types';
import type { ClaimDraft, KycContext } from './kyc.types';

/**
 * The review's 'Hay un dato mal' (issue 43 item 7): the patient names the field read wrong and,
 * optionally, what it should say; a person reviews it as a review case carrying that claim. Pure
 * helpers for kyc.machine.ts's `review.claiming` and the case it opens.
 */

/** Nothing chosen yet. */
export const emptyClaim: ClaimDraft = { field: null, says: '' };

/** The draft after the patient chose a field or typed what it should say. */
export function claimWith({ context, event }: { context: KycContext; event: object }): ClaimDraft {
  const draft = context.claim ?? emptyClaim;
  const e = event as { type: string; field?: ClaimDraft['field']; value?: string };
  if (e.type === 'claim.field' && e.field) return { ...draft, field: e.field };
  if (e.type === 'claim.says' && typeof e.value === 'string')
    return { ...draft, says: e.value.replace(CONTROL_CHARACTER, ' ').slice(0, CLAIM_SAYS_MAX) };
  return draft;
}

/** The claim as the contract sends it (what it should say only when typed), or null: no field. */
export function claimOf(draft: ClaimDraft | null): PatientClaim | null {
  if (!draft?.field) return null;
  const says = draft.says.trim();
  return says ? { field: draft.field, says } : { field: draft.field };
}

/** The case it opens: a person's review, by the patient's choice, about what the card's front says. */
export const claimAssist = (): AssistRequest => ({
  trigger: 'patient_choice',
  step: 'front',
  back: null,
  kind: 'review',
});

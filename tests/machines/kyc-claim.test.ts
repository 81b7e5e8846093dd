import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import type { CaseStatus } from '../../contract/cases';
import { selectAssistActor } from '../../machines/kyc/kyc.assist.selectors';
import { kycFixtures } from '../../machines/kyc/kyc.fixtures';
import { selectReviewClaimView, selectReviewView } from '../../machines/kyc/kyc.selectors';
import { caseReview, harness } from './kyc.harness';

/**
 * 'Verificá tus datos' when a field is wrong (issue 43 item 7): 'Hay un dato mal', the field (and
 * what it should say), sent to a person as a review case carrying the patient's claim.
 */

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const TOKEN = 'R'.repeat(43);
const review: CaseStatus = { ...caseReview, trigger: 'patient_choice' };

/** The KYC machine on the review of a read card, bound to a registration. */
function atReview() {
  const h = harness(['sess-1'], false);
  const snapshot = h.machine.resolveState({
    value: { review: 'showing' },
    context: { ...kycFixtures.review.context, registrationToken: TOKEN, sessionId: 'sess-1' },
  });
  const actor = createActor(h.machine, { snapshot, input: {} }).start();
  const snap = () => actor.getSnapshot();
  /** the way out's child, once the claim is sent */
  const assist = () => selectAssistActor(snap())!.getSnapshot();
  return { h, actor, snap, assist };
}

describe("'Hay un dato mal' on the review", () => {
  it('is offered beside Reintentar and Continuar; it asks which field, and nothing goes without one', () => {
    const { h, actor, snap } = atReview();
    expect(selectReviewView(snap())).toMatchObject({
      canClaim: true,
      canRetry: true,
      canConfirm: true,
      claiming: false,
    });
    actor.send({ type: 'review.claim' });
    expect(snap().value).toEqual({ review: 'claiming' });
    expect(selectReviewView(snap()).claiming).toBe(true);
    expect(selectReviewClaimView(snap())).toMatchObject({ field: null, says: '', canSend: false });
    actor.send({ type: 'claim.says', value: '14/04/1990' });
    actor.send({ type: 'claim.send' });
    expect(snap().value).toEqual({ review: 'claiming' });
    expect(h.openCase.calls).toHaveLength(0);
  });

  it("opens a person's review carrying the field named and what it should say", async () => {
    const { h, actor, snap, assist } = atReview();
    actor.send({ type: 'review.claim' });
    actor.send({ type: 'claim.field', field: 'DateOfBirth' });
    actor.send({ type: 'claim.says', value: '  14/04/1990 ' });
    expect(selectReviewClaimView(snap())).toMatchObject({
      field: 'DateOfBirth',
      canSend: true,
    });
    actor.send({ type: 'claim.send' });
    expect(snap().value).toBe('assist');
    expect(assist().value).toBe('opening');
    expect(h.openCase.calls.map((c) => c.input)).toEqual([
      {
        registrationToken: TOKEN,
        kind: 'review',
        trigger: 'patient_choice',
        step: 'front',
        claim: { field: 'DateOfBirth', says: '14/04/1990' },
      },
    ]);
    h.openCase.calls[0]!.answer.resolve(review);
    await vi.advanceTimersByTimeAsync(0);
    expect(assist().value).toEqual({ case: 'waiting' });
  });

  it('the field alone is enough: what it should say is optional', () => {
    const { h, actor } = atReview();
    actor.send({ type: 'review.claim' });
    actor.send({ type: 'claim.field', field: 'FullName' });
    actor.send({ type: 'claim.send' });
    expect(h.openCase.calls[0]!.input.claim).toEqual({ field: 'FullName' });
  });

  it("'Volver a mis datos' returns to the review with nothing kept; Reintentar still there", () => {
    const { h, actor, snap } = atReview();
    actor.send({ type: 'review.claim' });
    actor.send({ type: 'claim.field', field: 'Gender' });
    actor.send({ type: 'claim.cancel' });
    expect(snap().value).toEqual({ review: 'showing' });
    expect(snap().context.claim).toBeNull();
    expect(selectReviewView(snap())).toMatchObject({ canRetry: true, canClaim: true });
    expect(h.openCase.calls).toHaveLength(0);
  });

  it('is not offered while the review restarts the identity step', () => {
    const { actor, snap } = atReview();
    actor.send({ type: 'review.retry' });
    expect(snap().value).toEqual({ review: 'rejecting' });
    expect(selectReviewView(snap()).canClaim).toBe(false);
    actor.send({ type: 'review.claim' });
    expect(snap().value).toEqual({ review: 'rejecting' });
  });
});

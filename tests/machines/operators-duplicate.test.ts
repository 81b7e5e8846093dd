import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { caseMachine } from '../../machines/operators/case.machine';
import { caseFixtures, duplicateCase } from '../../machines/operators/operators.fixtures';
import { selectCase, selectRejection } from '../../machines/operators/operators.selectors';

/**
 * 'Posible duplicado' in the back office (issue 44 item 3): the case shows the registered patient
 * beside the registration, is approved or rejected ('the same person'), never sent back for a step.
 */

const started = (f: (typeof caseFixtures)[keyof typeof caseFixtures]) =>
  createActor(caseMachine, { snapshot: f, input: { caseId: f.context.caseId } }).start();

describe('operatorCase: a posible duplicado', () => {
  it('shows the registered patient, with the faces similarity and the threshold in percent', () => {
    const view = selectCase(started(caseFixtures.reviewingDuplicate).getSnapshot());
    expect(view.duplicate).toEqual({
      documento: '4567890',
      nombre: 'GONZÁLEZ BENÍTEZ MARÍA JOSÉ',
      registeredAt: duplicateCase.duplicate!.registeredAt,
      similarityPercent: 91,
      thresholdPercent: 70,
    });
    expect(view).toMatchObject({ canDecide: true, canApprove: true, canRepeat: false });
    // Other kinds show none.
    expect(selectCase(started(caseFixtures.reviewing).getSnapshot()).duplicate).toBeNull();
    expect(selectCase(started(caseFixtures.reviewing).getSnapshot()).canRepeat).toBe(true);
  });

  it("ignores 'Pedir que repita'; 'Rechazar' offers 'the same person' (and only there)", () => {
    const actor = started(caseFixtures.reviewingDuplicate);
    actor.send({ type: 'repeat.start' });
    expect(actor.getSnapshot().matches({ reviewing: 'idle' })).toBe(true);
    actor.send({ type: 'reject.start' });
    expect(actor.getSnapshot().matches({ reviewing: 'rejecting' })).toBe(true);
    expect(selectRejection(actor.getSnapshot()).reasons).toEqual(['duplicate_person', 'other']);
    const review = started(caseFixtures.reviewing);
    review.send({ type: 'reject.start' });
    expect(selectRejection(review.getSnapshot()).reasons).not.toContain('duplicate_person');
    expect(selectRejection(review.getSnapshot()).reasons).toContain('faces_differ');
  });
});

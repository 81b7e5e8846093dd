import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { caseMachine } from '../../machines/operators/case.machine';
import { caseFixtures } from '../../machines/operators/operators.fixtures';
import { selectCase, selectRejection } from '../../machines/operators/operators.selectors';

/**
 * 'Corrección de datos' in the back office (issue 45 item 5): a patient's request from Mis datos is
 * approved (no face to enrol: no selfie needed) or rejected for what the cédula shows, never sent
 * back for a step.
 */

const started = (f: (typeof caseFixtures)[keyof typeof caseFixtures]) =>
  createActor(caseMachine, { snapshot: f, input: { caseId: f.context.caseId } }).start();

describe('operatorCase: a patient correction', () => {
  it('may be approved without a selfie, never repeated', () => {
    const actor = started(caseFixtures.reviewingCorrection);
    expect(selectCase(actor.getSnapshot())).toMatchObject({
      canDecide: true,
      canApprove: true,
      canRepeat: false,
      needsSelfie: false,
    });
    actor.send({ type: 'repeat.start' });
    expect(actor.getSnapshot().matches({ reviewing: 'idle' })).toBe(true);
  });

  it("'Rechazar' offers what the cédula shows or not, and 'other'", () => {
    const actor = started(caseFixtures.reviewingCorrection);
    actor.send({ type: 'reject.start' });
    expect(selectRejection(actor.getSnapshot()).reasons).toEqual([
      'document_invalid',
      'photos_unusable',
      'other',
    ]);
  });
});

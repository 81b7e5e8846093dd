import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import preview from '../../.storybook/preview';
import { fixtureCase } from '../../machines/operators/operators.fixtures';
import { cameraErrors } from '../../src/copy/es.camera';
import { caseCopy, operadorTerms } from '../../src/copy/es.operators';
import * as stories from '../../stories/operators/operators.stories';

/**
 * The case screen's panels no journey in operators.test.tsx reads: the summary's read-only note
 * and supervisor badge, a missing image, the corrections already made, the desk photo's match and
 * the desk camera's failure.
 */

setProjectAnnotations(preview);
const s = composeStories(stories);

describe("the case screen's panels", () => {
  it('the summary: read only, with nothing to correct or decide', async () => {
    render(<s.CaseReviewingReadOnly />);
    const summary = await screen.findByRole('region', { name: caseCopy.summary });
    expect(within(summary).getByText(caseCopy.readOnly)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: caseCopy.correct })).toBeNull();
    expect(screen.queryByRole('button', { name: caseCopy.approve })).toBeNull();
    expect(screen.getByRole('button', { name: caseCopy.backToQueue })).toBeInTheDocument();
  });

  it('the summary: a supervised case says so, with its approvals', async () => {
    render(<s.CaseReviewingSupervised />);
    const summary = await screen.findByRole('region', { name: caseCopy.summary });
    expect(summary).toHaveTextContent(`${caseCopy.needsSupervisor} ${caseCopy.approvals(1)}`);
  });

  it('the evidence: an image the case does not hold is said, under its caption', async () => {
    render(<s.CaseReviewingCardMissing />);
    await screen.findByRole('heading', { name: caseCopy.documentSides });
    expect(screen.getAllByText(caseCopy.missingImage).length).toBeGreaterThan(0);
    expect(screen.getByText(operadorTerms.images.front)).toBeInTheDocument();
  });

  it('the corrections already made: field, from, to, reason and operator', async () => {
    render(<s.CaseReviewing />);
    await screen.findByRole('heading', { name: caseCopy.corrections });
    const c = fixtureCase.corrections[0]!;
    expect(
      screen.getByText(
        caseCopy.correctionLine(
          operadorTerms.fields[c.field as keyof typeof operadorTerms.fields],
          c.from,
          c.to,
          c.reason,
          c.operator,
        ),
      ),
    ).toBeInTheDocument();
  });

  it("the desk photo's match: the numbers and a signal, never a verdict", async () => {
    render(<s.CaseCentroWithPhoto />);
    const actions = await screen.findByRole('region', { name: caseCopy.actions });
    expect(actions).toHaveTextContent(
      `${caseCopy.desk.matchTitle}: ${caseCopy.desk.matchValue(74, 60)} ${caseCopy.desk.matchAbove} ${caseCopy.desk.signal}`,
    );
  });

  it("the desk camera's failure: why, and a way to try again", async () => {
    render(<s.CaseDeskCameraFailed />);
    await screen.findByRole('heading', { name: caseCopy.desk.title });
    expect(screen.getByText(cameraErrors.permissionDenied)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: caseCopy.desk.retryCamera })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: caseCopy.desk.capture })).toBeNull();
  });
});

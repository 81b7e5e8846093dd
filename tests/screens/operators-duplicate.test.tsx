import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import preview from '../../.storybook/preview';
import { caseCopy, operadorTerms } from '../../src/copy/es.operators';
import * as stories from '../../stories/operators/operators.stories';

/**
 * 'Posible duplicado' (issue 44 item 3) on the case screen: the registered patient's record beside
 * the registration's evidence, how to decide, and no 'Pedir que repita'.
 */

setProjectAnnotations(preview);
const s = composeStories(stories);

describe('a posible duplicado on the case screen', () => {
  it("names the kind, shows the registered patient's record and how to decide", async () => {
    render(<s.CaseReviewingDuplicate />);
    expect(
      await screen.findByRole('heading', {
        name: caseCopy.title(operadorTerms.kinds.duplicate),
      }),
    ).toBeInTheDocument();
    const record = screen.getByRole('region', { name: caseCopy.duplicate.title });
    expect(within(record).getByText('4567890')).toBeInTheDocument();
    expect(within(record).getByText('GONZÁLEZ BENÍTEZ MARÍA JOSÉ')).toBeInTheDocument();
    expect(
      within(record).getByText(caseCopy.duplicate.similarityValue(91, 70)),
    ).toBeInTheDocument();
    expect(within(record).getByText(caseCopy.duplicate.howToDecide)).toBeInTheDocument();
    // The summary says why the case was opened.
    const summary = screen.getByRole('region', { name: caseCopy.summary });
    expect(
      within(summary).getByText(operadorTerms.triggers.possible_duplicate),
    ).toBeInTheDocument();
    // This registration's own evidence is still there to compare.
    expect(screen.getByRole('heading', { name: caseCopy.faces })).toBeInTheDocument();
  });

  it("offers 'Aprobar' and 'Rechazar', never 'Pedir que repita'", async () => {
    render(<s.CaseReviewingDuplicate />);
    await screen.findByRole('region', { name: caseCopy.duplicate.title });
    expect(screen.getByRole('button', { name: caseCopy.approve })).toBeEnabled();
    expect(screen.getByRole('button', { name: caseCopy.reject })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: caseCopy.repeat })).toBeNull();
  });

  it("rejecting it offers 'the same person' and 'another reason' only", async () => {
    render(<s.CaseRejectingDuplicate />);
    const select = await screen.findByRole('combobox', { name: caseCopy.rejectForm.reason });
    const options = within(select)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toContain(operadorTerms.rejectReasons.duplicate_person);
    expect(options).toContain(operadorTerms.rejectReasons.other);
    expect(options).not.toContain(operadorTerms.rejectReasons.faces_differ);
  });

  it('other cases show no registered patient', async () => {
    render(<s.CaseReviewing />);
    await screen.findByRole('region', { name: caseCopy.summary });
    expect(screen.queryByRole('region', { name: caseCopy.duplicate.title })).toBeNull();
  });
});

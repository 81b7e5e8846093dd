import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import preview from '../../.storybook/preview';
import { patientClaimCase } from '../../machines/operators/operators.fixtures';
import { caseCopy, operadorTerms } from '../../src/copy/es.operators';
import * as stories from '../../stories/operators/operators.stories';

/**
 * 'Hay un dato mal' reaches a person (issue 43 item 7): the reviewer reads the field the patient
 * named, and what they say it should say, as the patient's words above the fields, which stay as
 * read (the operator corrects with the contract's rules).
 */

setProjectAnnotations(preview);
const s = composeStories(stories);

describe("the patient's claim in the back office", () => {
  it('shows which field the patient says is wrong and what it should say, as theirs', async () => {
    render(<s.CaseReviewingPatientClaim />);
    const section = await screen.findByRole('region', { name: caseCopy.patientClaimTitle });
    expect(section).toHaveTextContent(
      caseCopy.patientClaim(operadorTerms.fields.DateOfBirth, '14/04/1990'),
    );
    expect(within(section).getByText(/«Fecha de nacimiento» está mal/)).toBeInTheDocument();
    // Not a correction: the field as read, and no correction listed.
    expect(patientClaimCase.fields.DateOfBirth).not.toBe('1990-04-14');
    expect(screen.queryByRole('heading', { name: caseCopy.corrections })).toBeNull();
  });

  it('a case without a claim shows none', async () => {
    render(<s.CaseReviewing />);
    await screen.findByRole('heading', { name: caseCopy.fields });
    expect(screen.queryByRole('region', { name: caseCopy.patientClaimTitle })).toBeNull();
  });
});

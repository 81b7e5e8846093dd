import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { kyc } from '../../src/copy/es.kyc';
import { caseReview } from '../machines/kyc.harness';
import { button, renderKyc, settle } from './kyc.render';

/** 'Verificá tus datos' when a field is wrong (issue 43 item 7): a person hears which one. */

const copy = kyc.review;
const TOKEN = 'R'.repeat(43);

beforeEach(() => vi.useFakeTimers());

/** The card read, and the server's look-up: nobody's yet (a registration's review). */
async function toReview(h: ReturnType<typeof renderKyc>) {
  await settle(() => h.toReview());
  await settle(() => h.check.calls.at(-1)!.answer.resolve(false));
}
afterEach(() => vi.useRealTimers());

describe("'Hay un dato mal' on the review", () => {
  it('names the field and what it should say, and opens a review by a person carrying them', async () => {
    const h = renderKyc({ registrationToken: TOKEN });
    await toReview(h);
    expect(button(copy.retry)).toBeEnabled();
    // The intro names both ways: a person for one field, the photos again with 'Reintentar'.
    expect(screen.getByText(copy.intro)).toHaveTextContent(`«${copy.claim}»`);
    expect(screen.getByText(copy.intro)).toHaveTextContent(`«${copy.retry}»`);
    fireEvent.click(button(copy.claim));

    const group = screen.getByRole('group', { name: copy.claimTitle });
    expect(group).toBeInTheDocument();
    const send = button(copy.claimSend);
    expect(send).toBeDisabled();
    expect(send).toHaveAccessibleDescription(copy.claimMissing);
    // Every field the card gives, by its name on the card.
    for (const label of Object.values(copy.claimFields))
      expect(screen.getByRole('radio', { name: label })).not.toBeChecked();

    fireEvent.click(screen.getByRole('radio', { name: copy.claimFields.DateOfBirth }));
    fireEvent.change(screen.getByRole('textbox', { name: copy.claimSaysLabel }), {
      target: { value: '14/04/1990' },
    });
    expect(screen.getByRole('radio', { name: copy.claimFields.DateOfBirth })).toBeChecked();
    expect(button(copy.claimSend)).toBeEnabled();
    fireEvent.click(button(copy.claimSend));
    expect(h.openCase.calls.map((c) => c.input)).toEqual([
      {
        registrationToken: TOKEN,
        kind: 'review',
        trigger: 'patient_choice',
        step: 'front',
        claim: { field: 'DateOfBirth', says: '14/04/1990' },
      },
    ]);
    await settle(() => h.openCase.calls[0]!.answer.resolve({ ...caseReview }));
    expect(screen.queryByRole('button', { name: copy.claimSend })).toBeNull();
  });

  it("'Volver a mis datos' shows the data again, with 'Reintentar'", async () => {
    const h = renderKyc({ registrationToken: TOKEN });
    await toReview(h);
    fireEvent.click(button(copy.claim));
    fireEvent.click(button(copy.claimCancel));
    expect(button(copy.retry)).toBeEnabled();
    expect(button(copy.claim)).toBeEnabled();
    expect(screen.queryByRole('group', { name: copy.claimTitle })).toBeNull();
    expect(h.openCase.calls).toHaveLength(0);
  });
});

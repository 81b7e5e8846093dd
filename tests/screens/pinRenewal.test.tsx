import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import preview from '../../.storybook/preview';
import { onboarding as copy, onboardingErrors } from '../../src/copy/es.onboarding';
import * as stories from '../../stories/onboarding/onboarding.stories';

// After the card is read (born 12/04/1990, document 4.567.890): a PIN made from it is asked again
// on a step of its own before the patient is created (issue 20, item 5).

setProjectAnnotations(preview);
const s = composeStories(stories);

const pinField = () => screen.getByLabelText(copy.pinRenewal.pinLabel) as HTMLInputElement;

describe('Elegí otro PIN', () => {
  it.each([
    ['6 digits in a row of the document number', '567890', onboardingErrors.pinFromOwnData],
    ['the birth date as DDMMYY', '120490', onboardingErrors.pinFromOwnData],
    ['the birth date as YYMMDD', '900412', onboardingErrors.pinFromOwnData],
    ['a banned PIN', '000000', onboardingErrors.pinInvalid],
  ])('refuses %s under the field and keeps the focus there', async (_l, pin, message) => {
    render(<s.PinRenewalEditing />);
    const heading = await screen.findByRole('heading', { level: 1, name: copy.pinRenewal.title });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByText('Paso 8 de 8')).toBeInTheDocument();
    const save = screen.getByRole('button', { name: copy.pinRenewal.submit });
    expect(save).toBeDisabled();
    expect(save).toHaveAccessibleDescription(copy.pinRenewal.missing);
    fireEvent.change(pinField(), { target: { value: pin } });
    fireEvent.click(save);
    expect(pinField()).toHaveAttribute('aria-invalid', 'true');
    expect(pinField()).toHaveAccessibleDescription(message);
    expect(pinField()).toHaveFocus();
  });

  it('a PIN of its own goes on to the registration', async () => {
    render(<s.PinRenewalEditingTyped />);
    await screen.findByRole('heading', { level: 1, name: copy.pinRenewal.title });
    fireEvent.click(screen.getByRole('button', { name: copy.pinRenewal.submit }));
    expect(
      await screen.findByRole('heading', { level: 1, name: copy.registering.title }),
    ).toBeInTheDocument();
  });
});

import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import preview from '../../.storybook/preview';
import * as kycStories from '../../stories/onboarding/kyc.stories';

// Issue 43 item 6: 'Paso 5 de 5' stood over six screens of the identity step, so its longest part
// read as the end. Each part is a step of its own now, and only the complementary data is the last.

setProjectAnnotations(preview);
const s = composeStories(kycStories);

const progress = () => screen.getByTestId('onboarding-progress');

describe("the identity step's progress line", () => {
  it.each([
    ['the selfie', 'Paso 5 de 8', s.SelfieIdle],
    ["the card's front", 'Paso 6 de 8', s.FrontWaiting],
    ["the card's back", 'Paso 6 de 8', s.BackPreview],
    ['the check', 'Paso 6 de 8', s.Verifying],
    ['the review', 'Paso 7 de 8', s.Review],
  ])('%s reads %s', async (_name, text, Story) => {
    render(<Story />);
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(progress()).toHaveTextContent(text));
    expect(progress()).toHaveAttribute('aria-live', 'polite');
  });

  it('a case a person reviews shows no step number', async () => {
    render(<s.CaseWaiting />);
    await screen.findByRole('heading', { level: 1 });
    expect(progress()).toBeEmptyDOMElement();
  });
});

import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import preview from '../../.storybook/preview';
import { PRIVACY_VERSION, TERMS_VERSION } from '../../contract/terms';
import TycPage from '../../src/pages/TycPage';
import * as stories from '../../stories/my-data/my-data.stories';

setProjectAnnotations(preview);
const { Data, DataTermsVersionUnknown, Accesses } = composeStories(stories);

/** Issue 45: the terms' versions in 'Lo que guardamos'; a failed PIN recovery in 'Quién vio'. */
describe('Mis datos: terms versions and failed recoveries in words', () => {
  it('/tyc names the versions registration records as accepted', () => {
    const { container } = render(
      <MemoryRouter>
        <TycPage />
      </MemoryRouter>,
    );
    expect(container.textContent).toContain(
      `Términos y condiciones: versión ${TERMS_VERSION}. Política de privacidad: versión ${PRIVACY_VERSION}.`,
    );
  });

  it('shows when the terms were accepted and both versions', async () => {
    render(<Data />);
    expect(
      await screen.findByText(
        /2 de octubre de 2026, términos: versión 2026-11-24, privacidad: versión 2026-11-24/,
      ),
    ).toBeTruthy();
  });

  it('says the version is unknown for a patient registered before it was recorded', async () => {
    render(<DataTermsVersionUnknown />);
    expect(await screen.findByText(/2 de octubre de 2026, no guardamos qué versión/)).toBeTruthy();
  });

  it('a failed PIN recovery says what was tried, not that the PIN changed', async () => {
    render(<Accesses />);
    expect(
      await screen.findByText('Intento de recuperar tu PIN con un código por SMS'),
    ).toBeTruthy();
    expect(screen.queryByText('Cambiaste tu PIN con un código por SMS')).toBeNull();
  });
});

import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { appName } from '../../src/copy/es';
import { SERVICE_CONTACT, SERVICE_LEGAL_NAME } from '../../src/copy/es.tyc';
import TycPage from '../../src/pages/TycPage';

// The terms page (issue 20, item 8): the personal-data law, what is kept, for how long, deletion.

describe('/tyc', () => {
  it("cites Paraguay's personal-data law, not the credit-information one", () => {
    const { container } = render(
      <MemoryRouter>
        <TycPage />
      </MemoryRouter>,
    );
    const text = container.textContent ?? '';
    expect(text).toContain('Ley N.º 7593/2025 de protección de datos personales');
    expect(text).not.toContain('6534');
    // What is kept: descriptions, not images unless configured; for how long; how to ask deletion.
    expect(text).toMatch(/Guardamos esa descripción, no las fotos/);
    expect(text).toMatch(/72 horas/);
    expect(text).toMatch(/5 minutos como máximo/);
    expect(text).toMatch(/90 días/);
    expect(screen.getByText(/Para pedir que borremos tus datos/)).toBeInTheDocument();
  });
});

describe("/tyc as the service's terms (issue 29 item 18)", () => {
  it('no longer calls itself a template; its only placeholders are the legal name and the contact', () => {
    const { container } = render(
      <MemoryRouter>
        <TycPage />
      </MemoryRouter>,
    );
    const text = container.textContent ?? '';
    expect(text).not.toMatch(/plantilla|borrador|no constituye/i);
    // Every bracketed placeholder is one of the two a deployment fills in (docs/operators.md).
    const placeholders = new Set(text.match(/\[[^\]]*\]/g));
    expect(placeholders).toEqual(new Set([SERVICE_LEGAL_NAME, SERVICE_CONTACT]));
    // The logo, as on every screen.
    expect(screen.getByRole('img', { name: appName })).toBeInTheDocument();
  });
});

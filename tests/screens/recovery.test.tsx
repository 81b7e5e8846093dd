import { composeStories, setProjectAnnotations } from '@storybook/react-vite';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import preview from '../../.storybook/preview';
import * as stories from '../../stories/recovery/recovery.stories';
import { recovery as copy, recoveryErrors, recoveryOtpErrors } from '../../src/copy/es.recovery';

// The recovery screens as the stories render them (the app's theme and navigation come from the
// Storybook preview, so these tests name no router). The machine runs with calls that never settle.

setProjectAnnotations(preview);
const s = composeStories(stories);

const field = (label: string) => screen.getByLabelText(label, { exact: true }) as HTMLInputElement;
const button = (name: string) => screen.getByRole('button', { name });
const heading = async (name: string) => {
  const h = await screen.findByRole('heading', { level: 1, name });
  await waitFor(() => expect(document.activeElement).toBe(h));
  return h;
};

describe('step 0, Recuperar Pin', () => {
  it('focuses its title, keeps the document digits and the mobile digits, and sends once both are filled', async () => {
    render(<s.RequestEditing />);
    await heading(copy.request.title);
    expect(screen.getByRole('link', { name: copy.backToLogin }).getAttribute('href')).toBe(
      '/login',
    );
    const submit = button(copy.request.submit);
    expect(submit).toBeDisabled();
    fireEvent.change(field(copy.request.documentoLabel), { target: { value: '1.234.567' } });
    fireEvent.change(field(copy.request.celularLabel), { target: { value: '0981-123-456' } });
    expect(field(copy.request.documentoLabel).value).toBe('1234567');
    expect(field(copy.request.celularLabel).value).toBe('0981123456');
    expect(field(copy.request.celularLabel).placeholder).toBe('098XXXXXXX');
    // The one mobile field (registration's too): the tel keypad, room for a pasted +595 number.
    expect(field(copy.request.celularLabel).maxLength).toBe(16);
    expect(field(copy.request.celularLabel)).toHaveAttribute('inputmode', 'tel');
    expect(submit).toBeEnabled();
    fireEvent.click(submit);
    expect(await screen.findByRole('button', { name: copy.request.submitting })).toBeDisabled();
    expect(field(copy.request.documentoLabel).readOnly).toBe(true);
  });

  it.each(['+595 981 123456', '0981 123 456', '981123456'])(
    'a mobile pasted from the contacts (%s) shows as the local 0981123456 and is accepted',
    async (pasted) => {
      render(<s.RequestEditing />);
      await heading(copy.request.title);
      fireEvent.change(field(copy.request.documentoLabel), { target: { value: '1234567' } });
      fireEvent.change(field(copy.request.celularLabel), { target: { value: pasted } });
      expect(field(copy.request.celularLabel).value).toBe('0981123456');
      fireEvent.click(button(copy.request.submit));
      expect(await screen.findByRole('button', { name: copy.request.submitting })).toBeDisabled();
      expect(field(copy.request.celularLabel)).not.toHaveAttribute('aria-invalid');
    },
  );

  it('holds the mobile to 10 digits: 0981-765461999 leaves 0981765461 (issue 43 item 4)', async () => {
    render(<s.RequestEditing />);
    await heading(copy.request.title);
    const celular = field(copy.request.celularLabel);
    for (const key of '0981-765461999') {
      fireEvent.change(celular, { target: { value: celular.value + key } });
    }
    expect(celular.value).toBe('0981765461');
  });

  it('says why a mobile is refused under it; fixing it clears the message and keeps what was typed', async () => {
    render(<s.RequestInvalidCelular />);
    await heading(copy.request.title);
    const celular = field(copy.request.celularLabel);
    expect(celular).toHaveAttribute('aria-invalid', 'true');
    expect(celular).toHaveAccessibleDescription(
      `${copy.request.celularHint} ${recoveryErrors.celularInvalid}`,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.change(celular, { target: { value: '0981123456' } });
    expect(screen.queryByText(recoveryErrors.celularInvalid)).toBeNull();
    expect(field(copy.request.documentoLabel).value).toBe('1234567');
  });

  it('both fields wrong: each marked under itself; a refused submit sends the focus to the first', async () => {
    render(<s.RequestEditing />);
    await heading(copy.request.title);
    const submit = button(copy.request.submit);
    expect(submit).toHaveAccessibleDescription(copy.missing.documentoAndCelular);
    fireEvent.change(field(copy.request.documentoLabel), { target: { value: '12' } });
    expect(submit).toHaveAccessibleDescription(copy.missing.celular);
    fireEvent.change(field(copy.request.celularLabel), { target: { value: '0211234' } });
    fireEvent.click(submit);
    expect(field(copy.request.documentoLabel)).toHaveFocus();
    expect(field(copy.request.documentoLabel)).toHaveAccessibleDescription(
      recoveryErrors.documentoInvalid,
    );
    expect(field(copy.request.celularLabel)).toHaveAttribute('aria-invalid', 'true');
    fireEvent.change(field(copy.request.documentoLabel), { target: { value: '1234567' } });
    fireEvent.click(submit);
    expect(field(copy.request.celularLabel)).toHaveFocus();
  });

  it.each([
    [s.RequestFailed, recoveryErrors.sendFailed],
    [s.RequestFailedServerMessage, 'Ingresá tu celular registrado: solo números, como 0981123456.'],
    [s.RequestFailedTooManyAttempts, 'Demasiados intentos. Esperá 60 minutos e intentá de nuevo.'],
  ])(
    'a failed send shows the server message or the spec fallback, fields kept (%#)',
    async (Story, text) => {
      render(<Story />);
      await heading(copy.request.title);
      expect(screen.getByRole('alert').textContent).toBe(text);
      expect(field(copy.request.documentoLabel).value).toBe('1234567');
      expect(field(copy.request.celularLabel).value).toBe('0981123456');
    },
  );
});

describe('step 1, Verificá tu código', () => {
  it('says what to do when no SMS arrives: the registered mobile, and when to ask again (issue 29 item 15)', async () => {
    render(<s.Verification />);
    await screen.findByRole('heading', { level: 1, name: copy.verification.title });
    const hint = screen.getByRole('region', { name: copy.verification.noSms.title });
    expect(hint).toHaveTextContent(copy.verification.noSms.registered);
    expect(hint).toHaveTextContent(copy.verification.noSms.retry);
  });

  it('shows one wait, the countdown, whose unit never wraps alone (issue 43 item 9)', async () => {
    render(<s.Verification />);
    await screen.findByRole('heading', { level: 1, name: copy.verification.title });
    // What is shown (the polite live region, read but not shown, says the same wait in words).
    const shown = screen
      .getAllByText(/código en \d|minuto/)
      .filter((el) => !el.closest('[aria-live]'));
    expect(shown).toHaveLength(1);
    expect(shown[0]!.textContent).toBe('Podés pedir un nuevo código en 30\u00a0s.');
  });

  it('after the phone step the focus is in the code field, so typed digits (and the SMS autofill) go there (issue 43 item 9)', async () => {
    render(<s.Verification />);
    await waitFor(() => expect(field(copy.verification.codeLabel)).toHaveFocus());
    expect(
      screen.getByRole('heading', { level: 1, name: copy.verification.title }),
    ).not.toHaveFocus();
  });

  it('validates at the 6th digit (issue 29 item 15), shows the countdown, has a back button', async () => {
    render(<s.Verification />);
    await screen.findByRole('heading', { level: 1, name: copy.verification.title });
    // As written: the unit is tied to its number by a non-breaking space.
    expect(
      screen.getByText(copy.verification.countdown(30), { normalizer: (t) => t }),
    ).toBeTruthy();
    const validar = button(copy.verification.submit);
    expect(validar).toBeDisabled();
    fireEvent.change(field(copy.verification.codeLabel), { target: { value: '48291' } });
    expect(validar).toBeDisabled();
    expect(field(copy.verification.codeLabel).autocomplete).toBe('one-time-code');
    fireEvent.change(field(copy.verification.codeLabel), { target: { value: '482915' } });
    expect(
      await screen.findByRole('button', { name: copy.verification.submitting }),
    ).toBeDisabled();
    expect(button(copy.backToRequest)).toBeDisabled();
  });

  it('shows the recovery fallback for a wrong code, and the resend link at 0', async () => {
    render(<s.VerificationWrongCode />);
    await screen.findByRole('heading', { level: 1, name: copy.verification.title });
    expect(screen.getByRole('alert').textContent).toBe(recoveryOtpErrors.wrongCode);
  });

  it('offers resend at 0; a failed resend shows the spec text', async () => {
    render(<s.VerificationResendFailed />);
    await screen.findByRole('heading', { level: 1, name: copy.verification.title });
    expect(button(copy.verification.resend)).toBeEnabled();
    expect(screen.getByRole('alert').textContent).toBe(recoveryOtpErrors.resendFailed);
  });
});

describe('step 2, Nuevo PIN', () => {
  it('masks the PIN, refuses a banned one with the PIN message and keeps it', async () => {
    render(<s.NewPinEditing />);
    await heading(copy.newPin.title);
    const pin = field(copy.newPin.pinLabel);
    expect(pin.type).toBe('password');
    expect(pin.maxLength).toBe(6);
    expect(screen.getByRole('link', { name: copy.backToLogin }).getAttribute('href')).toBe(
      '/login',
    );
    expect(button(copy.newPin.submit)).toBeDisabled();
    fireEvent.change(pin, { target: { value: '12a3456' } });
    expect(pin.value).toBe('123456');
    fireEvent.click(button(copy.newPin.submit));
    expect(pin).toHaveAccessibleDescription(recoveryErrors.pinInvalid);
    expect(pin).toHaveFocus();
    expect(pin.value).toBe('123456');
    // 6 digits in a row of the document number (1234567) are refused too.
    fireEvent.change(pin, { target: { value: '234567' } });
    fireEvent.click(button(copy.newPin.submit));
    expect(pin).toHaveAccessibleDescription(recoveryErrors.pinFromOwnData);
    expect(pin).toHaveAttribute('aria-invalid', 'true');
    fireEvent.click(button('Mostrar PIN'));
    expect(pin.type).toBe('text');
    fireEvent.change(pin, { target: { value: '270583' } });
    fireEvent.click(button(copy.newPin.submit));
    expect(await screen.findByRole('button', { name: copy.newPin.submitting })).toBeDisabled();
  });

  it('a failed save keeps the PIN and shows the fallback', async () => {
    render(<s.NewPinFailed />);
    await heading(copy.newPin.title);
    expect(screen.getByRole('alert').textContent).toBe(recoveryErrors.saveFailed);
    expect(field(copy.newPin.pinLabel).value).toBe('482915');
    expect(button(copy.newPin.submit)).toBeEnabled();
  });
});

describe("step 2, the server's refusal of the birth date", () => {
  it('shows it under the PIN field, not as a banner', async () => {
    render(<s.NewPinFailedOwnData />);
    await heading(copy.newPin.title);
    const pin = field(copy.newPin.pinLabel);
    expect(pin).toHaveAccessibleDescription(recoveryErrors.pinFromOwnData);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('step 3', () => {
  it("says the PIN was updated and links to /login with 'Volver al login'", async () => {
    render(<s.Done />);
    await heading(copy.done.title);
    expect(screen.getByRole('link', { name: copy.done.toLogin }).getAttribute('href')).toBe(
      '/login',
    );
  });
});

import { act, render, screen } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import type { LoginRequest, LoginResponse } from '../../contract/login';
import { loginMachine } from '../../machines/login/login.machine';
import { ApiError } from '../../machines/shared/errors';
import { login as copy } from '../../src/copy/es';
import { LoginActor } from '../../src/flows/login/login.context';
import { LoginScreen } from '../../src/flows/login/LoginScreen';

/** The login screen at /login, its machine's request answered by `submit`. */
function loginApp(submit: (input: LoginRequest) => Promise<LoginResponse>) {
  const machine = loginMachine.provide({
    actors: { submitLogin: fromPromise<LoginResponse, LoginRequest>(({ input }) => submit(input)) },
  });
  return (
    <MemoryRouter initialEntries={['/login']}>
      <LoginActor.Provider logic={machine}>
        <LoginScreen />
      </LoginActor.Provider>
    </MemoryRouter>
  );
}

function loginMachineRecording() {
  const calls: LoginRequest[] = [];
  const app = loginApp((input) => {
    calls.push(input);
    return new Promise(() => {});
  });
  return { calls, app };
}

function renderLogin() {
  const { calls, app } = loginMachineRecording();
  render(app);
  return { calls, user: userEvent.setup() };
}

describe('LoginScreen: what is missing, and the focus after a wrong PIN (issue 20)', () => {
  it("says beside the disabled 'Validar' what is missing (its description); a refused login sends the focus back to the PIN", async () => {
    render(
      loginApp(async () => ({
        success: false,
        message: 'Número de documento o PIN incorrectos.',
      })),
    );
    const user = userEvent.setup();
    const button = screen.getByRole('button', { name: 'Validar' });
    expect(button).toHaveAccessibleDescription(copy.missing.documentoAndPin);
    await user.type(screen.getByLabelText(copy.documentoLabel), '1234567');
    expect(button).toHaveAccessibleDescription(copy.missing.pin);
    await user.type(screen.getByLabelText(copy.pinLabel), '482915');
    expect(button).toBeEnabled();
    expect(button).not.toHaveAccessibleDescription();
    await user.click(button);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Número de documento o PIN incorrectos.',
    );
    expect(screen.getByLabelText(copy.pinLabel)).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Mostrar PIN' }));
    expect(screen.getByLabelText(copy.pinLabel)).toHaveAttribute('type', 'text');
  });
});

describe('LoginScreen', () => {
  it('has the spec texts, a 7-digit placeholder and a masked numeric PIN field', () => {
    renderLogin();
    expect(screen.getByRole('heading', { name: 'Iniciar sesión' })).toBeInTheDocument();
    const documento = screen.getByLabelText(copy.documentoLabel);
    expect(documento).toHaveAttribute('placeholder', expect.stringMatching(/^\d{7}$/));
    expect(documento).toHaveAttribute('inputmode', 'numeric');
    expect(documento).toHaveAttribute('maxlength', '12');
    const pin = screen.getByLabelText(copy.pinLabel);
    expect(pin).toHaveAttribute('type', 'password');
    expect(pin).toHaveAttribute('inputmode', 'numeric');
    expect(screen.getByRole('link', { name: '¿Olvidaste tu PIN?' })).toHaveAttribute(
      'href',
      '/recuperar-pin',
    );
    expect(screen.getByRole('link', { name: copy.backToHome })).toHaveAttribute('href', '/');
  });

  it('strips non-digits as typed and enables Validar only with 5+ digits and a 6-digit PIN', async () => {
    const { user } = renderLogin();
    const button = screen.getByRole('button', { name: 'Validar' });
    expect(button).toBeDisabled();
    await user.type(screen.getByLabelText(copy.documentoLabel), '12.3a4');
    expect(screen.getByLabelText(copy.documentoLabel)).toHaveValue('1234');
    await user.type(screen.getByLabelText(copy.pinLabel), '482915');
    expect(button).toBeDisabled();
    await user.type(screen.getByLabelText(copy.documentoLabel), '5');
    expect(button).toBeEnabled();
  });

  it('submits with Enter, then shows Validando... with inputs and link disabled', async () => {
    const { user, calls } = renderLogin();
    await user.type(screen.getByLabelText(copy.documentoLabel), '1234567');
    await user.type(screen.getByLabelText(copy.pinLabel), '482915{Enter}');
    expect(calls).toEqual([{ numero_documento: '1234567', pin: '482915' }]);
    expect(screen.getByRole('button', { name: 'Validando...' })).toBeDisabled();
    expect(screen.getByLabelText(copy.documentoLabel)).toBeDisabled();
    expect(screen.getByLabelText(copy.pinLabel)).toBeDisabled();
    expect(screen.getByRole('link', { name: '¿Olvidaste tu PIN?' })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    // The checking can take seconds: the page says so, in a live region (issue 29 item 9).
    expect(screen.getByText(copy.checking)).toHaveAttribute('aria-live', 'polite');
  });

  it('prerendered: a POST form whose submit waits for hydration; what was typed before is kept', async () => {
    const { calls, app } = loginMachineRecording();
    const container = document.createElement('div');
    container.innerHTML = renderToString(app);
    document.body.append(container);
    const form = container.querySelector('form')!;
    expect(form).toHaveAttribute('method', 'post');
    const button = screen.getByRole('button', { name: 'Validar' });
    expect(button).toBeDisabled();
    // The patient types before the JavaScript has run: only the DOM knows.
    screen.getByLabelText<HTMLInputElement>(copy.documentoLabel).value = '1234567';
    screen.getByLabelText<HTMLInputElement>(copy.pinLabel).value = '482915';
    const root = await act(async () => hydrateRoot(container, app));
    // Hydrating takes no focus: the first Tab still reaches the back arrow.
    expect(screen.getByRole('heading', { name: copy.title })).not.toHaveFocus();
    expect(screen.getByLabelText(copy.documentoLabel)).toHaveValue('1234567');
    expect(screen.getByLabelText(copy.pinLabel)).toHaveValue('482915');
    expect(button).toBeEnabled();
    await userEvent.setup().click(button);
    expect(calls).toEqual([{ numero_documento: '1234567', pin: '482915' }]);
    act(() => root.unmount());
    container.remove();
  });
});

describe('LoginScreen: a locked account (issue 29 item 9)', () => {
  it("shows the server's too-many-attempts answer and offers '¿Olvidaste tu PIN?' as a button-link", async () => {
    const message =
      'Demasiados intentos con este número de documento. Por seguridad, esperá 15 minutos ' +
      'e intentá de nuevo, o tocá «¿Olvidaste tu PIN?» para crear uno nuevo.';
    render(
      loginApp(async () => {
        throw new ApiError('tooManyAttempts', 429, message, 900);
      }),
    );
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(copy.documentoLabel), '1234567');
    await user.type(screen.getByLabelText(copy.pinLabel), '482915{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByText(copy.checking)).toBeNull();
    // One way to recovery, right under the message (not a second copy of the small link).
    const links = screen.getAllByRole('link', { name: '¿Olvidaste tu PIN?' });
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveAttribute('href', '/recuperar-pin');
    expect(screen.getByRole('alert').nextElementSibling).toBe(links[0]);
  });
});

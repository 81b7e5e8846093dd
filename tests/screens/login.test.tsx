import { act, render, screen } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import type { LoginRequest, LoginResponse } from '../../contract/login';
import { loginMachine } from '../../machines/login/login.machine';
import { login as copy } from '../../src/copy/es';
import { LoginActor } from '../../src/flows/login/login.context';
import { LoginScreen } from '../../src/flows/login/LoginScreen';

function loginMachineRecording() {
  const calls: LoginRequest[] = [];
  const machine = loginMachine.provide({
    actors: {
      submitLogin: fromPromise<LoginResponse, LoginRequest>(({ input }) => {
        calls.push(input);
        return new Promise(() => {});
      }),
    },
  });
  const app = (
    <MemoryRouter initialEntries={['/login']}>
      <LoginActor.Provider logic={machine}>
        <LoginScreen />
      </LoginActor.Provider>
    </MemoryRouter>
  );
  return { calls, app };
}

function renderLogin() {
  const { calls, app } = loginMachineRecording();
  render(app);
  return { calls, user: userEvent.setup() };
}

describe('LoginScreen: what is missing, and the focus after a wrong PIN (issue 20)', () => {
  it("says beside the disabled 'Validar' what is missing (its description); a refused login sends the focus back to the PIN", async () => {
    const machine = loginMachine.provide({
      actors: {
        submitLogin: fromPromise<LoginResponse, LoginRequest>(async () => ({
          success: false,
          message: 'Número de documento o PIN incorrectos.',
        })),
      },
    });
    render(
      <MemoryRouter initialEntries={['/login']}>
        <LoginActor.Provider logic={machine}>
          <LoginScreen />
        </LoginActor.Provider>
      </MemoryRouter>,
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
    expect(screen.getByLabelText(copy.documentoLabel)).toHaveValue('1234567');
    expect(screen.getByLabelText(copy.pinLabel)).toHaveValue('482915');
    expect(button).toBeEnabled();
    await userEvent.setup().click(button);
    expect(calls).toEqual([{ numero_documento: '1234567', pin: '482915' }]);
    act(() => root.unmount());
    container.remove();
  });
});

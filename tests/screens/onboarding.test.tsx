import { useEffect } from 'react';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { fromCallback, fromPromise } from 'xstate';
import type {
  CurrentRegistrationResponse,
  SavePinRequest,
  RegisterRequest,
  RegisterResponse,
  StartRequest,
  StartResponse,
} from '../../contract/onboarding';
import { kycMachine, type KycMachine } from '../../machines/kyc/kyc.machine';
import type { KycSession } from '../../machines/kyc/kyc.types';
import { FIXTURE_REGISTRATION_TOKEN } from '../../machines/onboarding/onboarding.fixtures';
import { onboardingMachine } from '../../machines/onboarding/onboarding.machine';
import { pinCreationMachine } from '../../machines/onboarding/pin.machine';
import { registeringMachine } from '../../machines/onboarding/registering.machine';
import { registrationFormMachine } from '../../machines/onboarding/registration.machine';
import { otpMachine } from '../../machines/otp/otp.machine';
import type { OtpResendInput, OtpValidateInput, OtpVerdict } from '../../machines/otp/otp.types';
import { common } from '../../src/copy/es';
import { onboarding as copy, onboardingErrors, otpErrors } from '../../src/copy/es.onboarding';
import { kyc } from '../../src/copy/es.kyc';
import { OnboardingActor } from '../../src/flows/onboarding/onboarding.context';
import { OnboardingScreens } from '../../src/flows/onboarding/OnboardingScreens';
import type { ResultResponse } from '../../contract/common';
import { controlled } from '../machines/controlled';

function renderWizard(options: { restore?: 'controlled' } = {}) {
  const restore = controlled<CurrentRegistrationResponse, unknown>();
  const send = controlled<StartResponse, StartRequest>();
  const register = controlled<RegisterResponse, RegisterRequest>();
  const validate = controlled<OtpVerdict, OtpValidateInput>();
  const resend = controlled<OtpVerdict, OtpResendInput>();
  const session = controlled<
    KycSession,
    { sessionId: string | null; registrationToken: string | null }
  >();
  const load = controlled<KycMachine, unknown>();
  const savePin = controlled<ResultResponse, SavePinRequest>();
  const machine = onboardingMachine.provide({
    actors: {
      registrationForm: registrationFormMachine.provide({ actors: { sendCode: send.logic } }),
      registering: registeringMachine.provide({ actors: { registerPatient: register.logic } }),
      pinCreation: pinCreationMachine.provide({ actors: { savePin: savePin.logic } }),
      otp: otpMachine.provide({
        actors: { validateCode: validate.logic, resendCode: resend.logic },
      }),
      // Step 4's code, as its own chunk would bring it, with the session call and the camera driven here.
      loadKyc: load.logic,
      // A reload's restore: none unless the test answers it.
      restoreRegistration: options.restore
        ? restore.logic
        : fromPromise<CurrentRegistrationResponse>(async () => ({
            success: true,
            registration: null,
          })),
      // Leaving: this browser forgets the registration (answered at once).
      forgetRegistration: fromPromise<ResultResponse, { registrationToken: string }>(async () => ({
        success: true,
      })),
    },
  });
  const kyc = kycMachine.provide({
    actors: { ensureSession: session.logic, camera: fromCallback(() => () => {}) as never },
  });
  const location = { history: [] as string[] };
  function TrackLocation() {
    const { pathname } = useLocation();
    useEffect(() => {
      location.history.push(pathname);
    }, [pathname]);
    return null;
  }
  render(
    <MemoryRouter initialEntries={['/onboarding']}>
      <TrackLocation />
      <Routes>
        <Route
          path="/onboarding"
          element={
            <OnboardingActor.Provider logic={machine}>
              <OnboardingScreens />
            </OnboardingActor.Provider>
          }
        />
        <Route path="/" element={<p>landing</p>} />
      </Routes>
    </MemoryRouter>,
  );
  return {
    restores: restore.calls,
    sends: send.calls,
    validations: validate.calls,
    savePins: savePin.calls,
    resends: resend.calls,
    sessions: session.calls,
    loads: load.calls,
    kyc,
    registers: register.calls,
    location,
  };
}

const phoneField = () => screen.getByLabelText(copy.registration.phoneLabel);
const settle = async (fn: () => void) => {
  await act(async () => {
    fn();
  });
};

/** Registration filled and the code sent: on step 1. */
async function toVerification() {
  const h = renderWizard();
  fireEvent.change(phoneField(), { target: { value: '0981 123 456' } });
  fireEvent.submit(phoneField().closest('form')!);
  await settle(() => h.sends[0]!.answer.resolve({ success: true, message: 'ok' }));
  return h;
}

/** Code verified: on step 2. */
async function toPin() {
  const h = await toVerification();
  fireEvent.change(screen.getByLabelText(copy.verification.codeLabel), {
    target: { value: '482915' },
  });
  await settle(() =>
    h.validations[0]!.answer.resolve({
      success: true,
      registration: {
        token: FIXTURE_REGISTRATION_TOKEN,
        resumeAt: 'pin',
        phone: '0981123456',
        email: null,
        sessionId: null,
      },
    }),
  );
  return h;
}

/** A good PIN and the terms accepted: on the welcome (step 3). */
async function toWelcome() {
  const h = await toPin();
  fireEvent.change(screen.getByLabelText(copy.pinCreation.pinLabel), {
    target: { value: '482915' },
  });
  fireEvent.click(screen.getByRole('checkbox'));
  fireEvent.click(screen.getByRole('button', { name: 'Validar' }));
  await settle(() => h.savePins.at(-1)!.answer.resolve({ success: true }));
  return h;
}

// Step 4's screens are a lazy chunk: transform them once up front, so a test waits for the
// wizard's behaviour and not for Vitest compiling the module graph.
beforeAll(() => import('../../src/flows/onboarding/screens/KycScreen'));
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('Registrate (step 0)', () => {
  it('shows the phone field with +595 fixed, max 16, a placeholder and the tel keypad; e-mail optional', () => {
    renderWizard();
    const heading = screen.getByRole('heading', { name: 'Registrate' });
    expect(heading).toHaveFocus();
    const phone = phoneField();
    expect(phone).toHaveAttribute('maxlength', '16');
    expect(phone).toHaveAttribute('inputmode', 'tel');
    expect(phone).toHaveAttribute('placeholder', copy.registration.phonePlaceholder);
    expect(phone.closest('div')).toHaveTextContent('+595');
    expect(phone).toHaveAccessibleDescription(copy.registration.phoneHint);
    const email = screen.getByLabelText(copy.registration.emailLabel);
    expect(email).not.toBeRequired();
    expect(screen.getByRole('button', { name: 'Continuar' })).toBeEnabled();
    expect(screen.getByRole('button', { name: copy.backHome })).toBeEnabled();
  });

  it("says 'Número de celular inválido.' after leaving an invalid number, and the submit message on submit", () => {
    const h = renderWizard();
    fireEvent.change(phoneField(), { target: { value: '981 12' } });
    expect(screen.queryByText('Número de celular inválido.')).toBeNull();
    fireEvent.blur(phoneField());
    expect(screen.getByText('Número de celular inválido.')).toBeInTheDocument();
    expect(phoneField()).toHaveAttribute('aria-invalid', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Por favor, ingresá un número de celular válido.',
    );
    expect(h.sends).toHaveLength(0);
  });

  it('refuses an invalid e-mail with the spec message', () => {
    renderWizard();
    fireEvent.change(phoneField(), { target: { value: '981 123 456' } });
    fireEvent.change(screen.getByLabelText(copy.registration.emailLabel), {
      target: { value: 'maria@' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(
      screen.getByText('Por favor, ingresá un correo válido o dejá el campo vacío.'),
    ).toBeInTheDocument();
  });

  it("locks on a valid submit: 'Continuando...', button and back disabled, one call with the normalised phone", () => {
    const h = renderWizard();
    fireEvent.change(phoneField(), { target: { value: '+595 981 123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    const busy = screen.getByRole('button', { name: 'Continuando...' });
    expect(busy).toBeDisabled();
    expect(screen.getByRole('button', { name: copy.backHome })).toBeDisabled();
    fireEvent.submit(phoneField().closest('form')!);
    expect(h.sends.map((s) => s.input)).toEqual([{ phone: '0981123456' }]);
  });

  it.each(['+595 981 123456', '0981 123 456', '981123456'])(
    'a mobile pasted from the contacts (%s) is kept as pasted and sent as 0981123456',
    (pasted) => {
      const h = renderWizard();
      fireEvent.change(phoneField(), { target: { value: pasted } });
      expect(phoneField()).toHaveValue(pasted);
      fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
      expect(h.sends.map((s) => s.input)).toEqual([{ phone: '0981123456' }]);
    },
  );

  it("shows the server's message when the code cannot be sent", async () => {
    const h = renderWizard();
    fireEvent.change(phoneField(), { target: { value: '981 123 456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    await settle(() =>
      h.sends[0]!.answer.resolve({ success: false, message: 'No se pudo enviar el SMS.' }),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('No se pudo enviar el SMS.');
    expect(screen.getByRole('button', { name: 'Continuar' })).toBeEnabled();
  });

  it("shows 'El paciente ya existe' with a link to /login", async () => {
    const h = renderWizard();
    fireEvent.change(phoneField(), { target: { value: '981 123 456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    await settle(() =>
      h.sends[0]!.answer.resolve({
        success: false,
        message: 'Ya existe un paciente con este celular.',
      }),
    );
    expect(screen.getByRole('heading', { name: 'El paciente ya existe' })).toHaveFocus();
    expect(screen.getByRole('link', { name: copy.goToLogin })).toHaveAttribute('href', '/login');
  });

  it('back goes to the home page', async () => {
    const h = renderWizard();
    await settle(() => fireEvent.click(screen.getByRole('button', { name: copy.backHome })));
    expect(h.location.history).toContain('/');
    expect(screen.getByText('landing')).toBeInTheDocument();
  });
});

describe('Verificación (step 1)', () => {
  it("'Volver' keeps the code sent: step 0 with the number, and the same number returns to the code without a new SMS (issue 29 item 11)", async () => {
    const h = await toVerification();
    fireEvent.click(screen.getByRole('button', { name: common.back }));
    expect(
      screen.getByRole('heading', { level: 1, name: copy.registration.title }),
    ).toBeInTheDocument();
    expect(phoneField()).toHaveValue('981123456');
    await settle(() => fireEvent.submit(phoneField().closest('form')!));
    expect(screen.getByRole('heading', { name: 'Verificación' })).toBeInTheDocument();
    expect(h.sends).toHaveLength(1);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('moves focus to the title and offers a one-time-code field with the numeric keypad', async () => {
    await toVerification();
    expect(screen.getByRole('heading', { name: 'Verificación' })).toHaveFocus();
    const code = screen.getByLabelText(copy.verification.codeLabel);
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(screen.getByText(/0981 123 456/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continuar' })).toBeDisabled();
  });

  it("validates a pasted code at once, showing 'Validando...'", async () => {
    const h = await toVerification();
    fireEvent.change(screen.getByLabelText(copy.verification.codeLabel), {
      target: { value: '482 915' },
    });
    expect(h.validations.map((v) => v.input.code)).toEqual(['482915']);
    expect(screen.getByRole('button', { name: 'Validando...' })).toBeDisabled();
  });

  it('a wrong code clears the field and shows the spec message', async () => {
    const h = await toVerification();
    fireEvent.change(screen.getByLabelText(copy.verification.codeLabel), {
      target: { value: '000001' },
    });
    await settle(() => h.validations[0]!.answer.resolve({ success: false }));
    expect(screen.getByRole('alert')).toHaveTextContent(otpErrors.wrongCode);
    const code = screen.getByLabelText(copy.verification.codeLabel);
    expect(code).toHaveValue('');
    // The message is the field's own (under it, its description); the focus is back in it.
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(code).toHaveAccessibleDescription(otpErrors.wrongCode);
    expect(code).toHaveFocus();
  });

  it("a wrong code submitted with 'Continuar' sends the focus back to the field, not to <body>", async () => {
    const h = await toVerification();
    const continuar = screen.getByRole('button', { name: copy.verification.submit });
    expect(continuar).toHaveAccessibleDescription(copy.verification.codeMissing);
    continuar.focus();
    await settle(() => h.validations.length);
    fireEvent.change(screen.getByLabelText(copy.verification.codeLabel), {
      target: { value: '000001' },
    });
    await settle(() => h.validations[0]!.answer.resolve({ success: false }));
    expect(document.activeElement).toBe(screen.getByLabelText(copy.verification.codeLabel));
  });

  it('a network failure keeps the code and says so', async () => {
    const h = await toVerification();
    fireEvent.change(screen.getByLabelText(copy.verification.codeLabel), {
      target: { value: '482915' },
    });
    await settle(() => h.validations[0]!.answer.reject(new TypeError('Failed to fetch')));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'No pudimos validar tu código. Revisá tu conexión e intentá nuevamente.',
    );
    expect(screen.getByLabelText(copy.verification.codeLabel)).toHaveValue('482915');
    expect(screen.getByRole('button', { name: 'Continuar' })).toBeEnabled();
  });

  it('announces the countdown politely at 30 s, 10 s and 0, and offers resend only at 0', async () => {
    const h = await toVerification();
    const live = document.querySelector('[aria-live="polite"]:not([data-testid])')!;
    expect(live).toHaveTextContent('Podés pedir un nuevo código en 30 segundos.');
    expect(screen.queryByRole('button', { name: copy.verification.resend })).toBeNull();
    expect(screen.getByText('Podés pedir un nuevo código en 30 s.')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(screen.getByText('Podés pedir un nuevo código en 25 s.')).toBeInTheDocument();
    expect(live).toHaveTextContent('Podés pedir un nuevo código en 30 segundos.');
    await act(() => vi.advanceTimersByTimeAsync(15_000));
    expect(live).toHaveTextContent('Podés pedir un nuevo código en 10 segundos.');
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(live).toHaveTextContent('Ya podés pedir un nuevo código.');
    fireEvent.click(screen.getByRole('button', { name: copy.verification.resend }));
    expect(screen.getByRole('button', { name: copy.verification.resending })).toBeDisabled();
    await settle(() => h.resends[0]!.answer.resolve({ success: true }));
    expect(screen.getByRole('status')).toHaveTextContent('Código reenviado. Revisá tu SMS.');
    expect(screen.getByText('Podés pedir un nuevo código en 30 s.')).toBeInTheDocument();
  });

  it('a failed resend shows its own message and can be retried', async () => {
    const h = await toVerification();
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    fireEvent.click(screen.getByRole('button', { name: copy.verification.resend }));
    await settle(() => h.resends[0]!.answer.resolve({ success: false }));
    expect(screen.getByRole('alert')).toHaveTextContent(
      'No se pudo reenviar el código. Intentá de nuevo.',
    );
    expect(screen.getByRole('button', { name: copy.verification.resend })).toBeEnabled();
  });
});

describe('Crea tu propio PIN (step 2) and the welcome (step 3)', () => {
  it("keeps 'Validar' disabled until a PIN is typed and the terms are checked", async () => {
    await toPin();
    expect(screen.getByRole('heading', { name: 'Creá tu propio PIN' })).toHaveFocus();
    const pin = screen.getByLabelText(copy.pinCreation.pinLabel);
    expect(pin).toHaveAttribute('type', 'password');
    expect(pin).toHaveAttribute('inputmode', 'numeric');
    const validar = screen.getByRole('button', { name: 'Validar' });
    expect(validar).toBeDisabled();
    fireEvent.change(pin, { target: { value: '48a2' } });
    expect(pin).toHaveValue('482');
    expect(validar).toBeDisabled();
    fireEvent.click(screen.getByRole('checkbox'));
    expect(validar).toBeEnabled();
  });

  it('opens the terms at /tyc in a new tab', async () => {
    await toPin();
    const link = screen.getByRole('link', { name: /términos y condiciones/ });
    expect(link).toHaveAttribute('href', '/tyc');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
    expect(screen.getByRole('checkbox')).toHaveAccessibleName(/Acepto los términos y condiciones/);
  });

  it('refuses a banned PIN with the spec message, then accepts a good one and shows the welcome', async () => {
    const h = await toPin();
    fireEvent.change(screen.getByLabelText(copy.pinCreation.pinLabel), {
      target: { value: '123456' },
    });
    fireEvent.click(screen.getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Validar' }));
    // The message sits under the PIN field, which is marked and takes the focus.
    const pin = screen.getByLabelText(copy.pinCreation.pinLabel);
    expect(pin).toHaveAttribute('aria-invalid', 'true');
    expect(pin).toHaveAccessibleDescription(onboardingErrors.pinInvalid);
    expect(pin).toHaveFocus();
    fireEvent.change(screen.getByLabelText(copy.pinCreation.pinLabel), {
      target: { value: '482915' },
    });
    expect(screen.queryByText(onboardingErrors.pinInvalid)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Validar' }));
    // Kept with the registration first: 'Guardando...' on the disabled button.
    expect(screen.getByRole('button', { name: 'Guardando...' })).toBeDisabled();
    await settle(() => h.savePins[0]!.answer.resolve({ success: true }));
    expect(screen.getByRole('heading', { name: '¡Un par de fotos y ya!' })).toHaveFocus();
    expect(within(screen.getByRole('list')).getAllByRole('listitem')).toHaveLength(4);
    expect(screen.getByRole('button', { name: 'Siguiente' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Cancelar' })).toBeEnabled();
  });

  it("'Siguiente' opens the identity step with 'Cargando...' while its session is created, then the selfie", async () => {
    const h = await toWelcome();
    // Step 4's code started loading on the welcome (preload); 'Siguiente' waits for it if needed.
    expect(h.loads).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(screen.getByRole('heading', { name: copy.identity.title })).toHaveFocus();
    expect(screen.getByRole('status')).toHaveTextContent('Cargando...');
    await settle(() => h.loads.forEach((l) => l.answer.resolve(h.kyc)));
    await vi.waitFor(() => expect(h.sessions).toHaveLength(1));
    expect(screen.getByRole('status')).toHaveTextContent('Cargando...');
    await settle(() => h.sessions[0]!.answer.resolve({ sessionId: 'sess-1' }));
    await vi.waitFor(
      () => expect(screen.getByRole('heading', { name: kyc.selfie.title })).toHaveFocus(),
      { timeout: 5000 },
    );
    expect(screen.getByRole('button', { name: kyc.selfie.start })).toBeDisabled();
  });

  it("step 4's code failing to load (offline) says so in Spanish with 'Reintentar', which loads it again", async () => {
    const h = await toWelcome();
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    await settle(() =>
      h.loads.forEach((l) =>
        l.answer.reject(new TypeError('Failed to fetch dynamically imported module')),
      ),
    );
    expect(screen.getByRole('alert')).toHaveTextContent(onboardingErrors.kycLoadFailed);
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByRole('heading', { name: copy.identity.title })).toBeInTheDocument();
    const loadsBefore = h.loads.length;
    fireEvent.click(screen.getByRole('button', { name: copy.retry }));
    expect(h.loads).toHaveLength(loadsBefore + 1);
    expect(screen.getByRole('status')).toHaveTextContent('Cargando...');
    expect(screen.queryByRole('alert')).toBeNull();
    await settle(() => h.loads.at(-1)!.answer.resolve(h.kyc));
    await vi.waitFor(() => expect(h.sessions).toHaveLength(1));
  });

  it("'Cancelar' on the welcome goes home", async () => {
    const h = await toWelcome();
    await settle(() => fireEvent.click(screen.getByRole('button', { name: 'Cancelar' })));
    expect(h.location.history?.at(-1)).toBe('/');
  });
});

describe('what patients see (issue 20)', () => {
  it("shows 'Paso N de 8' in one live region that stays while the steps change", async () => {
    const h = renderWizard();
    const progress = screen.getByTestId('onboarding-progress');
    expect(progress).toHaveTextContent('Paso 1 de 8');
    expect(progress).toHaveAttribute('aria-live', 'polite');
    fireEvent.change(phoneField(), { target: { value: '0981 123 456' } });
    fireEvent.submit(phoneField().closest('form')!);
    await settle(() => h.sends[0]!.answer.resolve({ success: true, message: 'ok' }));
    expect(screen.getByRole('heading', { name: copy.verification.title })).toHaveFocus();
    expect(screen.getByTestId('onboarding-progress')).toBe(progress);
    expect(progress).toHaveTextContent('Paso 2 de 8');
  });

  it('a refused submit marks each field under it and sends the focus to the first to fix; the banner says only what is wrong now', async () => {
    renderWizard();
    const email = screen.getByLabelText(copy.registration.emailLabel);
    fireEvent.change(phoneField(), { target: { value: '123' } });
    fireEvent.change(email, { target: { value: 'maria@' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(phoneField()).toHaveFocus();
    expect(phoneField()).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription(onboardingErrors.emailInvalid);
    expect(screen.getByRole('alert')).toHaveTextContent(onboardingErrors.phoneInvalidSubmit);
    fireEvent.change(phoneField(), { target: { value: '981 123 456' } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(phoneField()).not.toHaveAttribute('aria-invalid');
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(email).toHaveFocus();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("says beside the disabled 'Validar' what is missing, in its description; Enter without the terms focuses the checkbox", async () => {
    await toPin();
    const validar = screen.getByRole('button', { name: 'Validar' });
    expect(validar).toBeDisabled();
    expect(validar).toHaveAccessibleDescription(copy.pinCreation.missing.pinAndTerms);
    const pin = screen.getByLabelText(copy.pinCreation.pinLabel);
    fireEvent.change(pin, { target: { value: '482915' } });
    expect(validar).toHaveAccessibleDescription(copy.pinCreation.missing.terms);
    expect(screen.getByText('Aceptá los términos para continuar.')).toBeVisible();
    fireEvent.submit(pin.closest('form')!);
    const terms = screen.getByRole('checkbox');
    expect(terms).toHaveFocus();
    expect(terms).toHaveAccessibleDescription(onboardingErrors.termsRequired);
    fireEvent.click(terms);
    expect(validar).toBeEnabled();
    expect(validar).not.toHaveAccessibleDescription();
  });

  it('the PIN field has a show/hide button', async () => {
    await toPin();
    const pin = screen.getByLabelText(copy.pinCreation.pinLabel);
    expect(pin).toHaveAttribute('type', 'password');
    fireEvent.click(screen.getByRole('button', { name: 'Mostrar PIN' }));
    expect(pin).toHaveAttribute('type', 'text');
    fireEvent.click(screen.getByRole('button', { name: 'Ocultar PIN' }));
    expect(pin).toHaveAttribute('type', 'password');
  });

  it("'El paciente ya existe' links to /login and to PIN recovery", async () => {
    const h = renderWizard();
    fireEvent.change(phoneField(), { target: { value: '0981 123 456' } });
    fireEvent.submit(phoneField().closest('form')!);
    await settle(() =>
      h.sends[0]!.answer.resolve({ success: false, message: 'x', onboardingComplete: true }),
    );
    expect(screen.getByRole('heading', { name: copy.patientExists.title })).toHaveFocus();
    expect(screen.getByRole('link', { name: copy.goToLogin })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('link', { name: '¿Olvidaste tu PIN?' })).toHaveAttribute(
      'href',
      '/recuperar-pin',
    );
    expect(screen.getByTestId('onboarding-progress')).toBeEmptyDOMElement();
  });
});

describe('a reload (issue 43 item 8)', () => {
  it('step 0 shows while the registration this browser holds is asked for; then its step, saying it continues', async () => {
    const h = renderWizard({ restore: 'controlled' });
    expect(h.restores).toHaveLength(1);
    // The page's first paint stays: the form, usable, no spinner.
    expect(phoneField()).toBeEnabled();
    expect(screen.getByRole('button', { name: copy.registration.submit })).toBeEnabled();
    await settle(() =>
      h.restores[0]!.answer.resolve({
        success: true,
        registration: {
          token: FIXTURE_REGISTRATION_TOKEN,
          resumeAt: 'welcome',
          phone: '0981123456',
          email: null,
          sessionId: null,
        },
      }),
    );
    expect(screen.getByRole('heading', { level: 1, name: copy.welcome.title })).toBeVisible();
    expect(screen.getByTestId('onboarding-resumed')).toHaveTextContent(copy.resumed);
    expect(screen.queryByLabelText(copy.registration.phoneLabel)).toBeNull();
  });

  it('none: step 0 stays as it was, with what was typed', async () => {
    const h = renderWizard({ restore: 'controlled' });
    fireEvent.change(phoneField(), { target: { value: '0981 123 456' } });
    await settle(() => h.restores[0]!.answer.resolve({ success: true, registration: null }));
    expect(phoneField()).toHaveValue('0981 123 456');
    expect(screen.queryByTestId('onboarding-resumed')).toBeNull();
  });
});

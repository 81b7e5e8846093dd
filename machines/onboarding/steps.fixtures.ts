import type { RegistrationStage } from '../../contract/onboarding';
import { handoffMachine } from './handoff.machine';
import { linkOpeningMachine } from './link.machine';
import { emptyPinContext, pinCreationMachine, pinRenewalMachine } from './pin.machine';
import { initialRegistrationFormContext, registrationFormMachine } from './registration.machine';
import { registeringMachine } from './registering.machine';
import type { KycOutput } from '../kyc/kyc.types';
import type {
  HandoffContext,
  LinkContext,
  OnboardingError,
  PinContext,
  RegisteringContext,
  RegistrationFormContext,
} from './onboarding.types';

/** The registration validate-otp opened (a bearer token of 43 base64url characters). */
export const FIXTURE_REGISTRATION_TOKEN = 'Rk9SLVNUT1JJRVMtT05MWS0wMTIzNDU2Nzg5QUJDREV';
export const FIXTURE_LINK_TOKEN = 'TElOSy1TVE9SSUVTLU9OTFktMDEyMzQ1Njc4OUFCQ0R';

// ---------------------------------------------------------------------------------------------
// Step 0's form

const empty: RegistrationFormContext = initialRegistrationFormContext;
const typed: RegistrationFormContext = {
  ...empty,
  phoneInput: '981 123 456',
  emailInput: 'maria.gonzalez@example.com.py',
};
const contact: RegistrationFormContext = {
  ...typed,
  phone: '0981123456',
  email: 'maria.gonzalez@example.com.py',
};
const form = (
  value: 'editing' | 'invalid' | 'sending' | 'failed' | 'sent' | 'exists',
  context: RegistrationFormContext,
) => registrationFormMachine.resolveState({ value, context });

/** One named snapshot per leaf state of step 0's form (and variant worth seeing). */
export const registrationFormFixtures = {
  editing: form('editing', empty),
  editingFilled: form('editing', typed),
  editingPhoneInline: form('editing', {
    ...empty,
    phoneInput: '981 12',
    fieldErrors: { phone: 'phoneInvalid', email: null },
  }),
  invalid: form('invalid', {
    ...empty,
    phoneInput: '123',
    emailInput: 'maria@',
    fieldErrors: { phone: 'phoneInvalid', email: 'emailInvalid' },
    error: { code: 'phoneInvalidSubmit' },
  }),
  invalidEmail: form('invalid', {
    ...typed,
    emailInput: 'maria@correo',
    fieldErrors: { phone: null, email: 'emailInvalid' },
  }),
  sending: form('sending', contact),
  failed: form('failed', { ...contact, error: { code: 'sendCodeFailed' } }),
  failedStart: form('failed', { ...contact, error: { code: 'startFailed' } }),
  failedServerMessage: form('failed', {
    ...contact,
    error: {
      code: 'startFailed',
      serverMessage: 'No se pudo enviar el SMS. Probá de nuevo en unos minutos.',
    },
  }),
  failedTooManyAttempts: form('failed', {
    ...contact,
    error: {
      code: 'tooManyAttempts',
      serverMessage: 'Demasiados intentos. Esperá 60 minutos e intentá de nuevo.',
    },
  }),
  /** The code is on its way: the wizard moves to step 1 at once (the form's last look). */
  sent: form('sent', { ...contact, resendAfterSeconds: 30 }),
  /** The mobile is a patient's already: the wizard says so at once. */
  exists: form('exists', contact),
};

// ---------------------------------------------------------------------------------------------
// Step 2 and 'Elegí otro PIN'

const pinBase: PinContext = {
  ...emptyPinContext,
  save: { registrationToken: FIXTURE_REGISTRATION_TOKEN, email: 'maria.gonzalez@example.com.py' },
  ownData: {},
};
const ready: PinContext = { ...pinBase, pinInput: '482915', termsAccepted: true };
const creation = (
  value: 'editing' | 'invalid' | 'saving' | 'saveFailed' | 'saved',
  context: PinContext,
) => pinCreationMachine.resolveState({ value, context });

/** One named snapshot per leaf state of step 2. */
export const pinCreationFixtures = {
  editing: creation('editing', pinBase),
  editingReady: creation('editing', ready),
  invalid: creation('invalid', { ...ready, pinInput: '123456', error: { code: 'pinInvalid' } }),
  invalidTerms: creation('invalid', {
    ...pinBase,
    pinInput: '482915',
    error: { code: 'termsRequired' },
  }),
  saving: creation('saving', { ...ready, pin: '482915' }),
  saveFailed: creation('saveFailed', {
    ...ready,
    pin: '482915',
    error: { code: 'savePinFailed' },
    failures: 1,
  }),
  /** Kept with the registration: the wizard moves to the welcome at once. */
  saved: creation('saved', { ...ready, pin: '482915' }),
};

/** The card of a patient born 12/04/1990 (document 4.567.890) who chose 120490 at step 2. */
const renewalBase: PinContext = {
  ...emptyPinContext,
  save: null,
  ownData: { documento: '4567890', birthDate: '1990-04-12' },
};
const renewal = (value: 'editing' | 'invalid' | 'chosen', context: PinContext) =>
  pinRenewalMachine.resolveState({ value, context });

/** One named snapshot per leaf state of 'Elegí otro PIN'. */
export const pinRenewalFixtures = {
  editing: renewal('editing', renewalBase),
  editingTyped: renewal('editing', { ...renewalBase, pinInput: '735194' }),
  invalid: renewal('invalid', {
    ...renewalBase,
    pinInput: '456789',
    error: { code: 'pinFromOwnData' },
    failures: 1,
  }),
  invalidBanned: renewal('invalid', {
    ...renewalBase,
    pinInput: '123456',
    error: { code: 'pinInvalid' },
    failures: 1,
  }),
  /** A new PIN: the wizard registers the patient at once. */
  chosen: renewal('chosen', { ...renewalBase, pinInput: '735194', pin: '735194' }),
};

// ---------------------------------------------------------------------------------------------
// 'Seguí en tu celular'

const handoffBase: HandoffContext = {
  registrationToken: FIXTURE_REGISTRATION_TOKEN,
  phone: '0981123456',
  cameraMissing: false,
  sent: null,
  error: null,
};
/** The link sent and the phone at a stage. */
const sentAt = (stage: RegistrationStage): HandoffContext => ({
  ...handoffBase,
  sent: {
    link: `http://localhost:3000/onboarding/celular#${FIXTURE_LINK_TOKEN}`,
    stage,
    expiresInSeconds: 1200,
  },
});
const handoff = (
  value: 'sending' | 'waiting' | 'failed' | 'stopped' | 'done',
  context: HandoffContext,
) => handoffMachine.resolveState({ value, context });

/** One named snapshot per leaf state of the handoff (and per stage of the phone). */
export const handoffFixtures = {
  sending: handoff('sending', handoffBase),
  waiting: handoff('waiting', sentAt('waiting')),
  waitingOpened: handoff('waiting', sentAt('opened')),
  waitingSelfie: handoff('waiting', sentAt('selfie')),
  waitingDocument: handoff('waiting', sentAt('document')),
  /** Handed off because this device has no camera: its own camera is not offered back. */
  waitingNoCamera: handoff('waiting', { ...sentAt('waiting'), cameraMissing: true }),
  failed: handoff('failed', {
    ...handoffBase,
    error: {
      code: 'handoffFailed',
      serverMessage: 'Ya te enviamos un enlace. Podés pedir otro en 25 segundos.',
    },
  }),
  stopped: handoff('stopped', { ...sentAt('waiting'), error: { code: 'handoffStopped' } }),
  /** The phone finished: the wizard shows the completion at once. */
  done: handoff('done', sentAt('completed')),
};

// ---------------------------------------------------------------------------------------------
// The phone that opened the SMS link

const linkBase: LinkContext = { linkToken: FIXTURE_LINK_TOKEN, registration: null, error: null };
const link = (value: 'opening' | 'opened' | 'refused', context: LinkContext) =>
  linkOpeningMachine.resolveState({ value, context });

/** One named snapshot per leaf state of the link opening. */
export const linkOpeningFixtures = {
  opening: link('opening', linkBase),
  /** The registration the link continues: the wizard goes on at its step at once. */
  opened: link('opened', {
    ...linkBase,
    registration: {
      token: FIXTURE_REGISTRATION_TOKEN,
      resumeAt: 'document',
      phone: '0981123456',
      email: null,
      sessionId: null,
    },
  }),
  refused: link('refused', {
    ...linkBase,
    error: {
      code: 'linkRefused',
      serverMessage:
        'Este enlace ya se usó. Pedí uno nuevo desde el otro dispositivo o ingresá tu celular para continuar.',
    },
  }),
};

// ---------------------------------------------------------------------------------------------
// The final register call

/** Step 4's outcome for the patient born 12/04/1990 (document 4.567.890). */
export const FIXTURE_KYC_OUTPUT: KycOutput = {
  sessionId: '5f0c2a4e-9b1d-4c8e-a7f3-2d6b8e1c9a40',
  kycResult: {
    success: true,
    kyc_complete: true,
    id_data: {
      FullName: 'GONZALEZ BENITEZ MARIA JOSE',
      DocumentNumber: '4567890',
      DateOfBirth: '1990-04-12',
      Gender: 'F',
      Nationality: 'PARAGUAYA',
      MaritalStatus: 'SOLTERA',
    },
  },
  supplementaryData: {
    tipoSangre: 'O+',
    direccion: 'Av. Mcal. López 1234',
    departamento: '0',
    ciudad_id: '0-1',
  },
};

const registeringBase: RegisteringContext = {
  request: {
    registrationToken: FIXTURE_REGISTRATION_TOKEN,
    phone: '0981123456',
    email: 'maria.gonzalez@example.com.py',
    pin: '482915',
    ...FIXTURE_KYC_OUTPUT,
  },
  error: null,
};
const registering = (
  value: 'submitting' | 'failed' | 'registered' | 'exists' | 'pinRefused' | 'cancelled',
  error: OnboardingError | null = null,
) => registeringMachine.resolveState({ value, context: { ...registeringBase, error } });

/** One named snapshot per leaf state of the final register call (and variant worth seeing). */
export const registeringFixtures = {
  submitting: registering('submitting'),
  failed: registering('failed', { code: 'registerFailed' }),
  failedServerMessage: registering('failed', {
    code: 'registerFailed',
    serverMessage: 'La verificación de identidad no está completa.',
  }),
  failedInvalidResponse: registering('failed', { code: 'registerInvalidResponse' }),
  failedNetwork: registering('failed', { code: 'registerNetwork' }),
  /** The patient exists now: the wizard shows step 5 at once (the call's last look). */
  registered: registering('registered'),
  /** The document is a patient's already: the wizard says so at once. */
  exists: registering('exists'),
  /** The server's copy of the card refused the PIN: the wizard asks for another at once. */
  pinRefused: registering('pinRefused'),
  /** 'Cancelar' after a failure: the wizard ends at once. */
  cancelled: registering('cancelled', { code: 'registerFailed' }),
};

import { initialOnboardingContext, onboardingMachine } from './onboarding.machine';
import type { RegistrationStage } from '../../contract/onboarding';
import type { OnboardingContext } from './onboarding.types';

const empty: OnboardingContext = initialOnboardingContext;

const typed: OnboardingContext = {
  ...empty,
  phoneInput: '981 123 456',
  emailInput: 'maria.gonzalez@example.com.py',
};
const contact: OnboardingContext = {
  ...typed,
  phone: '0981123456',
  email: 'maria.gonzalez@example.com.py',
  resendAfterSeconds: 30,
};
/** The registration validate-otp opened (a bearer token of 43 base64url characters). */
export const FIXTURE_REGISTRATION_TOKEN = 'Rk9SLVNUT1JJRVMtT05MWS0wMTIzNDU2Nzg5QUJDREV';
const registered: OnboardingContext = {
  ...contact,
  registrationToken: FIXTURE_REGISTRATION_TOKEN,
};
const withPin: OnboardingContext = {
  ...registered,
  pinInput: '482915',
  termsAccepted: true,
  pin: '482915',
};
const afterKyc: OnboardingContext = {
  ...withPin,
  sessionId: '5f0c2a4e-9b1d-4c8e-a7f3-2d6b8e1c9a40',
  kycResult: {
    success: true,
    kyc_complete: true,
    id_data: {
      FullName: 'GONZALEZ BENITEZ MARIA JOSE',
      DocumentNumber: '4567890',
      DateOfBirth: '1990-04-12',
      Gender: 'F',
      Nationality: 'PRY',
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

/** The card of a patient born 12/04/1990 (document 4.567.890) who chose 120490 at step 2. */
const ownDataPin: OnboardingContext = {
  ...afterKyc,
  pinInput: '',
  pin: null,
};

const FIXTURE_LINK_TOKEN = 'TElOSy1TVE9SSUVTLU9OTFktMDEyMzQ1Njc4OUFCQ0R';

/** 'Seguí en tu celular' with the link sent and the phone at a stage. */
const handoffAt = (stage: RegistrationStage): OnboardingContext['handoff'] => ({
  link: `http://localhost:3000/onboarding/celular#${FIXTURE_LINK_TOKEN}`,
  stage,
  expiresInSeconds: 1200,
});

const at = (
  value: Parameters<typeof onboardingMachine.resolveState>[0]['value'],
  context: OnboardingContext,
) => onboardingMachine.resolveState({ value, context });

/**
 * One named snapshot per leaf state (and variant worth seeing), for stories and tests. Each name
 * starts with the leaf's path (`registrationEditing` is registration.editing). The children (OTP on
 * verification, KYC on kyc) have their own fixtures.
 */
export const onboardingFixtures = {
  registrationEditing: at({ registration: 'editing' }, empty),
  registrationEditingFilled: at({ registration: 'editing' }, typed),
  registrationEditingPhoneInline: at(
    { registration: 'editing' },
    { ...empty, phoneInput: '981 12', fieldErrors: { phone: 'phoneInvalid', email: null } },
  ),
  registrationInvalid: at(
    { registration: 'invalid' },
    {
      ...empty,
      phoneInput: '123',
      emailInput: 'maria@',
      fieldErrors: { phone: 'phoneInvalid', email: 'emailInvalid' },
      error: { code: 'phoneInvalidSubmit' },
    },
  ),
  registrationInvalidEmail: at(
    { registration: 'invalid' },
    { ...typed, emailInput: 'maria@correo', fieldErrors: { phone: null, email: 'emailInvalid' } },
  ),
  registrationSending: at({ registration: 'sending' }, contact),
  registrationFailed: at(
    { registration: 'failed' },
    { ...contact, error: { code: 'sendCodeFailed' } },
  ),
  registrationFailedStart: at(
    { registration: 'failed' },
    { ...contact, error: { code: 'startFailed' } },
  ),
  registrationFailedServerMessage: at(
    { registration: 'failed' },
    {
      ...contact,
      error: {
        code: 'startFailed',
        serverMessage: 'No se pudo enviar el SMS. Probá de nuevo en unos minutos.',
      },
    },
  ),
  registrationFailedTooManyAttempts: at(
    { registration: 'failed' },
    {
      ...contact,
      error: {
        code: 'tooManyAttempts',
        serverMessage: 'Demasiados intentos. Esperá 60 minutos e intentá de nuevo.',
      },
    },
  ),
  verification: at('verification', contact),
  pinCreationEditing: at({ pinCreation: 'editing' }, registered),
  pinCreationEditingReady: at(
    { pinCreation: 'editing' },
    { ...registered, pinInput: '482915', termsAccepted: true },
  ),
  pinCreationInvalid: at(
    { pinCreation: 'invalid' },
    { ...registered, pinInput: '123456', termsAccepted: true, error: { code: 'pinInvalid' } },
  ),
  pinCreationInvalidTerms: at(
    { pinCreation: 'invalid' },
    { ...registered, pinInput: '482915', error: { code: 'termsRequired' } },
  ),
  pinCreationSaving: at({ pinCreation: 'saving' }, withPin),
  pinCreationSaveFailed: at(
    { pinCreation: 'saveFailed' },
    { ...withPin, error: { code: 'savePinFailed' }, failures: 1 },
  ),
  welcome: at('welcome', withPin),
  /** The mobile proved again after a lost page: the registration continues at the welcome. */
  welcomeResumed: at('welcome', { ...withPin, pin: null, pinInput: '', resumed: true }),
  handoffSending: at({ handoff: 'sending' }, withPin),
  handoffWaiting: at({ handoff: 'waiting' }, { ...withPin, handoff: handoffAt('waiting') }),
  handoffWaitingOpened: at({ handoff: 'waiting' }, { ...withPin, handoff: handoffAt('opened') }),
  handoffWaitingSelfie: at({ handoff: 'waiting' }, { ...withPin, handoff: handoffAt('selfie') }),
  handoffWaitingDocument: at(
    { handoff: 'waiting' },
    { ...withPin, handoff: handoffAt('document') },
  ),
  handoffFailed: at(
    { handoff: 'failed' },
    {
      ...withPin,
      error: {
        code: 'handoffFailed',
        serverMessage: 'Demasiados intentos. Esperá 25 segundos e intentá de nuevo.',
      },
    },
  ),
  handoffStopped: at(
    { handoff: 'stopped' },
    { ...withPin, handoff: handoffAt('waiting'), error: { code: 'handoffStopped' } },
  ),
  /** The phone that opened the SMS link, while its registration loads. */
  linkOpening: at('linkOpening', { ...empty, linkToken: FIXTURE_LINK_TOKEN }),
  linkRefused: at('linkRefused', {
    ...empty,
    linkToken: FIXTURE_LINK_TOKEN,
    error: {
      code: 'linkRefused',
      serverMessage:
        'Este enlace ya se usó. Pedí uno nuevo desde el otro dispositivo o ingresá tu celular para continuar.',
    },
  }),
  kycLoading: at({ kyc: 'loading' }, withPin),
  kycLoadFailed: at({ kyc: 'loadFailed' }, { ...withPin, error: { code: 'kycLoadFailed' } }),
  kycRunning: at({ kyc: 'running' }, withPin),
  pinRenewalEditing: at({ pinRenewal: 'editing' }, ownDataPin),
  pinRenewalEditingTyped: at({ pinRenewal: 'editing' }, { ...ownDataPin, pinInput: '735194' }),
  pinRenewalInvalid: at(
    { pinRenewal: 'invalid' },
    { ...ownDataPin, pinInput: '456789', error: { code: 'pinFromOwnData' }, failures: 1 },
  ),
  pinRenewalInvalidBanned: at(
    { pinRenewal: 'invalid' },
    { ...ownDataPin, pinInput: '123456', error: { code: 'pinInvalid' }, failures: 1 },
  ),
  registeringSubmitting: at({ registering: 'submitting' }, afterKyc),
  registeringFailed: at(
    { registering: 'failed' },
    { ...afterKyc, error: { code: 'registerFailed' } },
  ),
  registeringFailedServerMessage: at(
    { registering: 'failed' },
    {
      ...afterKyc,
      error: {
        code: 'registerFailed',
        serverMessage: 'La verificación de identidad no está completa.',
      },
    },
  ),
  registeringFailedInvalidResponse: at(
    { registering: 'failed' },
    { ...afterKyc, error: { code: 'registerInvalidResponse' } },
  ),
  registeringFailedNetwork: at(
    { registering: 'failed' },
    { ...afterKyc, error: { code: 'registerNetwork' } },
  ),
  unexpected: at('unexpected', { ...withPin, error: { code: 'unexpected' } }),
  complete: at('complete', { ...afterKyc, pin: null, pinInput: '' }),
  patientExists: at('patientExists', contact),
  home: at('home', empty),
};

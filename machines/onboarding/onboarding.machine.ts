import { assign, enqueueActions, setup, stopChild } from 'xstate';
import { PIN_LENGTH } from '../../contract/login';
import { EMAIL_PATTERN } from '../../contract/onboarding';
import {
  isAcceptablePin,
  isPinFromOwnData,
  PIN_FROM_OWN_DATA,
  pinOwnDataOf,
} from '../../contract/pin';
import { toFlowError } from '../shared/errors';
import { cleanPhoneInput, onlyDigits, phoneFromInput } from '../shared/input';
import { otpMachine } from '../otp/otp.machine';
import {
  loadKyc,
  openLink,
  registerPatient,
  registrationStatus,
  resendOnboardingCode,
  savePin,
  sendCode,
  sendLink,
  validateOnboardingCode,
} from './onboarding.actors';
import type { RegistrationResume, ResumeStep } from '../../contract/onboarding';
import type { KycMachine } from '../kyc/kyc.machine';
import type { KycInput, KycResult, KycResume } from '../kyc/kyc.types';
import type {
  FieldErrors,
  OnboardingContext,
  OnboardingError,
  OnboardingEvent,
  OnboardingInput,
} from './onboarding.types';

const EMAIL_MAX_LENGTH = 254;

const isEmailAcceptable = (emailInput: string): boolean => {
  const email = emailInput.trim();
  return email === '' || EMAIL_PATTERN.test(email);
};

const mentionsExists = (message: string | undefined): boolean =>
  Boolean(message && /existe/i.test(message));

/** Send-code and register say the patient already exists with success false + 'existe' or the flag. */
const isExistsAnswer = (answer: {
  success: boolean;
  message?: string | undefined;
  onboardingComplete?: boolean | undefined;
}) => !answer.success && (answer.onboardingComplete === true || mentionsExists(answer.message));

/** The same answer arriving as an HTTP error (the API uses 409 Conflict). */
function isExistsError(err: unknown): boolean {
  const e = toFlowError(err);
  return e.code === 'server' && (e.status === 409 || mentionsExists(e.serverMessage));
}

const withMessage = (
  code: OnboardingError['code'],
  serverMessage: string | undefined,
): OnboardingError => (serverMessage ? { code, serverMessage } : { code });

/** POST /start failures: the server's message when it sent one, else the spec's fallbacks. */
function sendCodeErrorFrom(err: unknown): OnboardingError {
  const e = toFlowError(err);
  if (e.code === 'tooManyAttempts') return withMessage('tooManyAttempts', e.serverMessage);
  if (e.code === 'server' || e.code === 'rejected')
    return withMessage('startFailed', e.serverMessage);
  return { code: 'sendCodeFailed' };
}

/** POST /register failures (spec 8, Register). */
function registerErrorFrom(err: unknown): OnboardingError {
  const e = toFlowError(err);
  switch (e.code) {
    case 'tooManyAttempts':
      return withMessage('tooManyAttempts', e.serverMessage);
    case 'invalidResponse':
      return { code: 'registerInvalidResponse' };
    case 'server':
    case 'rejected':
      return withMessage('registerFailed', e.serverMessage);
    default:
      return { code: 'registerNetwork' };
  }
}

const noFieldErrors: FieldErrors = { phone: null, email: null };

/** The card's data the PIN must not come from, once the document is read (null before). */
const ownDataOf = (kycResult: KycResult | null) =>
  kycResult?.id_data ? pinOwnDataOf(kycResult.id_data) : null;

/** True when register refused the PIN as made from the patient's own data. */
const isPinRefusedError = (err: unknown): boolean => toFlowError(err).reason === PIN_FROM_OWN_DATA;

/** Where step 4 continues for a resumed registration (its passed selfie, its read document). */
function kycResumeOf(r: RegistrationResume): KycResume | null {
  if (r.resumeAt === 'document') return { at: 'document' };
  if (r.resumeAt === 'review' && r.idData)
    return { at: 'review', kycResult: { success: true, kyc_complete: true, id_data: r.idData } };
  return null;
}

/** A failed call's code with the server's own words, when it sent some. */
const failureOf = (code: OnboardingError['code'], err: unknown): OnboardingError =>
  withMessage(code, toFlowError(err).serverMessage);

/** A new wizard: nothing typed, nothing kept. */
export const initialOnboardingContext: OnboardingContext = {
  phoneInput: '',
  emailInput: '',
  fieldErrors: noFieldErrors,
  phone: null,
  email: null,
  resendAfterSeconds: null,
  pinInput: '',
  termsAccepted: false,
  pin: null,
  sessionId: null,
  kycResult: null,
  supplementaryData: null,
  error: null,
  failures: 0,
  registrationToken: null,
  resumed: false,
  kycResume: null,
  linkToken: null,
  handoff: null,
};

/**
 * The mobile is proved (validate-otp, or the SMS link on the phone): the registration continues at
 * the first step it has not finished. Both answers carry `registration`.
 */
const resumeAt = (step: ResumeStep | ResumeStep[]) => ({
  guard: ({ event }: { event: { output?: { registration?: RegistrationResume | null } } }) => {
    const at = event.output?.registration?.resumeAt;
    return at !== undefined && ([] as ResumeStep[]).concat(step).includes(at);
  },
  actions: 'assignRegistration' as const,
});
const resumeTransitions = [
  { ...resumeAt('pin'), target: '#onboarding.pinCreation' },
  { ...resumeAt('welcome'), target: '#onboarding.welcome' },
  { ...resumeAt(['document', 'review']), target: '#onboarding.kyc' },
  // A server that kept no registration: nothing to continue with.
  { target: '#onboarding.unexpected' },
];

/** Edits on the registration form, in every state where it is editable. */
const registrationEditing = {
  'phone.change': { actions: 'assignPhoneInput' },
  'phone.blur': { actions: 'checkPhone' },
  'email.change': { actions: 'assignEmailInput' },
  'email.blur': { actions: 'checkEmail' },
  'form.submit': [
    { guard: 'isRegistrationValid', target: 'sending', actions: 'assignContact' },
    // reenter: every refused submit counts (the focus goes back to the field to fix)
    { target: 'invalid', reenter: true, actions: 'assignSubmitErrors' },
  ],
} as const;

/** Edits on the PIN form; after an error, any edit starts over from `editing`. */
const pinEditing = {
  'pin.change': { target: 'editing', actions: 'assignPinInput' },
  'terms.change': { target: 'editing', actions: 'assignTerms' },
  'form.submit': [
    { guard: 'isPinChoiceValid', target: '#onboarding.pinCreation.saving', actions: 'assignPin' },
    { guard: 'hasPinAndTerms', target: 'invalid', reenter: true, actions: 'assignPinInvalid' },
    { guard: 'hasPinTyped', target: 'invalid', reenter: true, actions: 'assignTermsRequired' },
  ],
} as const;

/** A new PIN once the card is read: not banned and not made from the card's data. */
const pinRenewalEditing = {
  'pin.change': { target: 'editing', actions: 'assignPinInput' },
  'form.submit': [
    {
      guard: 'isRenewedPinValid',
      target: '#onboarding.registering',
      actions: 'assignPin',
    },
    {
      guard: 'hasPinTyped',
      target: 'invalid',
      reenter: true,
      actions: 'assignRenewedPinInvalid',
    },
  ],
} as const;

/**
 * The onboarding wizard, steps 0 to 5 as the spec numbers them: registration (0), verification
 * (1, the OTP child), pinCreation (2), welcome (3), kyc (4, the KYC child) and registering, then
 * complete (5). `patientExists` when send-code or register says so; every back or cancel ends in
 * `home`. Once the mobile is verified the server keeps the registration too (the PIN as its hash):
 * verifying it again continues at the first unfinished step, and step 4 can be handed to the phone
 * (`handoff`, the first device following it) through an SMS link the phone opens (`linkOpening`).
 */
export const onboardingMachine = setup({
  types: {
    context: {} as OnboardingContext,
    events: {} as OnboardingEvent,
    input: {} as OnboardingInput,
    tags: {} as 'busy' | 'error',
    children: {} as {
      sendCode: 'sendCode';
      otp: 'otp';
      preloadKyc: 'loadKyc';
      loadKyc: 'loadKyc';
      registerPatient: 'registerPatient';
      savePin: 'savePin';
      sendLink: 'sendLink';
      openLink: 'openLink';
      registrationStatus: 'registrationStatus';
    },
  },
  actors: {
    sendCode,
    registerPatient,
    savePin,
    sendLink,
    openLink,
    registrationStatus,
    otp: otpMachine.provide({
      actors: { validateCode: validateOnboardingCode, resendCode: resendOnboardingCode },
    }),
    loadKyc,
  },
  guards: {
    isRegistrationValid: ({ context }) =>
      phoneFromInput(context.phoneInput) !== null && isEmailAcceptable(context.emailInput),
    hasPinTyped: ({ context }) => context.pinInput.length > 0,
    hasPinAndTerms: ({ context }) => context.pinInput.length > 0 && context.termsAccepted,
    isPinChoiceValid: ({ context }) => context.termsAccepted && isAcceptablePin(context.pinInput),
    isRenewedPinValid: ({ context }) =>
      isAcceptablePin(context.pinInput, ownDataOf(context.kycResult) ?? {}),
  },
  actions: {
    assignPhoneInput: assign(({ context, event }) => {
      if (event.type !== 'phone.change') return {};
      const phoneInput = cleanPhoneInput(event.value);
      // An error on the field goes away as soon as the number is valid; it never appears while typing.
      const fixed = context.fieldErrors.phone && phoneFromInput(phoneInput) !== null;
      // The banner says only what is wrong now: the phone's submit message goes with its fix.
      return {
        phoneInput,
        fieldErrors: fixed ? { ...context.fieldErrors, phone: null } : context.fieldErrors,
        error: fixed && context.error?.code === 'phoneInvalidSubmit' ? null : context.error,
      };
    }),
    checkPhone: assign({
      fieldErrors: ({ context }) => ({
        ...context.fieldErrors,
        phone:
          context.phoneInput.trim() === '' || phoneFromInput(context.phoneInput)
            ? null
            : 'phoneInvalid',
      }),
    }),
    assignEmailInput: assign(({ context, event }) => {
      if (event.type !== 'email.change') return {};
      const emailInput = event.value.slice(0, EMAIL_MAX_LENGTH);
      const fixed = context.fieldErrors.email && isEmailAcceptable(emailInput);
      return {
        emailInput,
        fieldErrors: fixed ? { ...context.fieldErrors, email: null } : context.fieldErrors,
      };
    }),
    checkEmail: assign({
      fieldErrors: ({ context }) => ({
        ...context.fieldErrors,
        email: isEmailAcceptable(context.emailInput) ? null : 'emailInvalid',
      }),
    }),
    assignSubmitErrors: assign(({ context }) => {
      const phoneOk = phoneFromInput(context.phoneInput) !== null;
      return {
        fieldErrors: {
          phone: phoneOk ? null : 'phoneInvalid',
          email: isEmailAcceptable(context.emailInput) ? null : 'emailInvalid',
        } satisfies FieldErrors,
        error: phoneOk ? null : { code: 'phoneInvalidSubmit' as const },
      };
    }),
    assignContact: assign(({ context }) => ({
      phone: phoneFromInput(context.phoneInput),
      email: context.emailInput.trim() || null,
      fieldErrors: noFieldErrors,
      error: null,
    })),
    assignPinInput: assign(({ context, event }) => ({
      pinInput:
        event.type === 'pin.change' ? onlyDigits(event.value, PIN_LENGTH) : context.pinInput,
      error: null,
    })),
    assignTerms: assign(({ context, event }) => ({
      termsAccepted: event.type === 'terms.change' ? event.accepted : context.termsAccepted,
      error: null,
    })),
    assignPinInvalid: assign({ error: { code: 'pinInvalid' } }),
    assignRenewedPinInvalid: assign({
      error: ({ context }) => ({
        code: isAcceptablePin(context.pinInput) ? 'pinFromOwnData' : 'pinInvalid',
      }),
    }),
    countFailure: assign({ failures: ({ context }) => context.failures + 1 }),
    assignKycOutput: assign(({ event }) =>
      event.type === 'xstate.done.actor.kyc'
        ? {
            sessionId: event.output.sessionId,
            kycResult: event.output.kycResult,
            supplementaryData: event.output.supplementaryData,
          }
        : {},
    ),
    assignTermsRequired: assign({ error: { code: 'termsRequired' } }),
    assignPin: assign({ pin: ({ context }) => context.pinInput, error: null }),
    clearError: assign({ error: null }),
    /**
     * Step 4's child from the logic the loader returned, as `kyc` (selectKycActor); its end arrives
     * as xstate.done.actor.kyc / xstate.error.actor.kyc. XState types a spawn's id only for sources
     * registered in setup(), and this one arrives at run time: hence the narrowed options type.
     */
    spawnKyc: enqueueActions(({ enqueue, context }, logic: KycMachine) => {
      const input: KycInput = {
        sessionId: context.sessionId,
        registrationToken: context.registrationToken,
        resume: context.kycResume,
        // The phone the link opened is where the registration continues: no second handoff.
        canHandOff: context.linkToken === null,
      };
      enqueue.spawnChild(logic, { id: 'kyc', input } as { input: KycInput });
      enqueue.assign({ kycResume: null });
    }),
    assignRegistration: assign(({ context, event }) => {
      const r =
        'output' in event
          ? (event.output as { registration?: RegistrationResume | null }).registration
          : null;
      if (!r) return {};
      return {
        registrationToken: r.token,
        phone: r.phone,
        // What the patient typed this time wins over what step 0 kept.
        email: context.email ?? r.email,
        sessionId: r.sessionId,
        resumed: r.resumeAt !== 'pin',
        kycResume: kycResumeOf(r),
      };
    }),
  },
}).createMachine({
  id: 'onboarding',
  context: ({ input }) => ({ ...initialOnboardingContext, linkToken: input?.linkToken || null }),
  initial: 'registration',
  states: {
    linkOpening: {
      tags: ['busy'],
      invoke: {
        id: 'openLink',
        src: 'openLink',
        input: ({ context }) => ({ linkToken: context.linkToken ?? '' }),
        onDone: resumeTransitions,
        onError: {
          target: 'linkRefused',
          actions: assign({ error: ({ event }) => failureOf('linkRefused', event.error) }),
        },
      },
    },
    // Used, expired or not valid: proving the mobile by SMS continues the registration as well.
    linkRefused: {
      tags: ['error'],
      on: {
        'link.restart': {
          target: 'registration',
          actions: assign({ linkToken: null, error: null }),
        },
        'flow.back': 'home',
      },
    },
    registration: {
      initial: 'editing',
      // The phone that opened the SMS link continues its registration; anyone else starts here.
      always: { guard: ({ context }) => context.linkToken !== null, target: 'linkOpening' },
      on: { 'flow.back': '#onboarding.home' },
      states: {
        editing: { on: registrationEditing },
        invalid: { tags: ['error'], entry: 'countFailure', on: registrationEditing },
        // Locked: no edits and no second submit while the code is being sent.
        sending: {
          tags: ['busy'],
          on: { 'flow.back': {} },
          invoke: {
            id: 'sendCode',
            src: 'sendCode',
            input: ({ context }) =>
              context.email
                ? { phone: context.phone ?? '', email: context.email }
                : { phone: context.phone ?? '' },
            onDone: [
              {
                guard: ({ event }) => event.output.success,
                target: '#onboarding.verification',
                actions: assign({
                  resendAfterSeconds: ({ event }) => event.output.resendAfterSeconds ?? null,
                }),
              },
              {
                guard: ({ event }) => isExistsAnswer(event.output),
                target: '#onboarding.patientExists',
              },
              {
                target: 'failed',
                actions: assign({
                  error: ({ event }) =>
                    withMessage('startFailed', event.output.message || undefined),
                }),
              },
            ],
            onError: [
              {
                guard: ({ event }) => isExistsError(event.error),
                target: '#onboarding.patientExists',
              },
              {
                target: 'failed',
                actions: assign({ error: ({ event }) => sendCodeErrorFrom(event.error) }),
              },
            ],
          },
        },
        // The send's refusal is about the number as it was: an edit takes the banner away.
        failed: {
          tags: ['error'],
          entry: 'countFailure',
          on: {
            ...registrationEditing,
            'phone.change': { target: 'editing', actions: ['assignPhoneInput', 'clearError'] },
            'email.change': { target: 'editing', actions: ['assignEmailInput', 'clearError'] },
          },
        },
      },
    },
    verification: {
      on: { 'flow.back': 'home' },
      invoke: {
        id: 'otp',
        src: 'otp',
        input: ({ context }) => ({
          recipient: { celular: context.phone ?? '' },
          resendAfterSeconds: context.resendAfterSeconds ?? undefined,
        }),
        onDone: resumeTransitions,
        onError: 'unexpected',
      },
    },
    pinCreation: {
      initial: 'editing',
      on: { 'flow.back': 'home' },
      states: {
        editing: { on: pinEditing },
        invalid: { tags: ['error'], entry: 'countFailure', on: pinEditing },
        // The PIN's hash is kept with the registration: a lost page does not ask for it again.
        saving: {
          tags: ['busy'],
          on: { 'flow.back': {} },
          invoke: {
            id: 'savePin',
            src: 'savePin',
            input: ({ context }) => ({
              registrationToken: context.registrationToken ?? '',
              pin: context.pin ?? '',
              email: context.email,
              termsAccepted: true as const,
            }),
            onDone: '#onboarding.welcome',
            onError: {
              target: 'saveFailed',
              actions: assign({ error: ({ event }) => failureOf('savePinFailed', event.error) }),
            },
          },
        },
        saveFailed: { tags: ['error'], entry: 'countFailure', on: pinEditing },
      },
    },
    welcome: {
      on: { 'welcome.next': 'kyc', 'flow.back': 'home' },
      // Step 4's code downloads while the patient reads the tips, so step 4 starts without waiting.
      // A failed preload is not the patient's concern here: step 4 loads again and shows its own
      // failure with a retry (kyc.loadFailed).
      invoke: { id: 'preloadKyc', src: 'loadKyc', onError: { actions: [] } },
    },
    kyc: {
      initial: 'loading',
      on: { 'flow.back': 'home' },
      states: {
        // The KYC machine's chunk: already there after the welcome's preload, else downloaded now.
        loading: {
          tags: ['busy'],
          invoke: {
            id: 'loadKyc',
            src: 'loadKyc',
            onDone: {
              target: 'running',
              actions: { type: 'spawnKyc', params: ({ event }) => event.output },
            },
            onError: {
              target: 'loadFailed',
              actions: assign({ error: { code: 'kycLoadFailed' } }),
            },
          },
        },
        loadFailed: {
          tags: ['error'],
          on: { 'kycLoad.retry': { target: 'loading', actions: 'clearError' } },
        },
        // The KYC child (spawned by spawnKyc) owns the sub-steps; leaving stops it and its camera.
        running: {
          exit: stopChild('kyc'),
          on: {
            'handoff.start': '#onboarding.handoff',
            'xstate.done.actor.kyc': [
              {
                // The card is read: a PIN made from its birth date or number is asked again.
                guard: ({ context, event }) =>
                  isPinFromOwnData(context.pin ?? '', ownDataOf(event.output.kycResult) ?? {}),
                target: '#onboarding.pinRenewal',
                actions: 'assignKycOutput',
              },
              { target: '#onboarding.registering', actions: 'assignKycOutput' },
            ],
            'xstate.error.actor.kyc': '#onboarding.unexpected',
          },
        },
      },
    },
    // 'Seguí en tu celular': the phone continues the registration from the SMS link; this device
    // follows it and shows the completion when the phone finishes.
    handoff: {
      initial: 'sending',
      on: {
        'flow.back': 'home',
        'handoff.cancel': { target: 'kyc', actions: assign({ handoff: null, error: null }) },
      },
      states: {
        sending: {
          tags: ['busy'],
          entry: 'clearError',
          invoke: {
            id: 'sendLink',
            src: 'sendLink',
            input: ({ context }) => ({ registrationToken: context.registrationToken ?? '' }),
            onDone: {
              target: 'waiting',
              actions: assign({
                handoff: ({ context, event }) => ({
                  link: event.output.link,
                  stage: context.handoff?.stage ?? 'waiting',
                  expiresInSeconds: event.output.expiresInSeconds,
                }),
              }),
            },
            onError: {
              target: 'failed',
              actions: assign({ error: ({ event }) => failureOf('handoffFailed', event.error) }),
            },
          },
        },
        failed: { tags: ['error'], on: { 'handoff.resend': 'sending' } },
        waiting: {
          invoke: {
            id: 'registrationStatus',
            src: 'registrationStatus',
            input: ({ context }) => ({
              registrationToken: context.registrationToken ?? '',
              delayFirst: true,
            }),
          },
          on: {
            'handoff.resend': 'sending',
            'poll.result': [
              {
                guard: ({ event }) => event.result.stage === 'completed',
                target: '#onboarding.complete',
              },
              {
                actions: assign({
                  handoff: ({ context, event }) =>
                    context.handoff && { ...context.handoff, stage: event.result.stage },
                }),
              },
            ],
            'poll.error': [
              {
                // The server answered: the registration is gone from this device.
                guard: ({ event }) =>
                  event.error.code === 'server' || event.error.code === 'rejected',
                target: 'stopped',
                actions: assign({
                  error: ({ event }) => withMessage('handoffStopped', event.error.serverMessage),
                }),
              },
              // No answer (the network): keep following, one interval later.
              { target: 'waiting', reenter: true },
            ],
          },
        },
        // The registration is no longer this device's (verified again elsewhere, or expired).
        stopped: { tags: ['error'] },
      },
    },
    // The PIN chosen at step 2 is made from the card just read: a step of its own asks for another
    // before the patient is created (the server refuses it at register too).
    pinRenewal: {
      initial: 'editing',
      on: { 'flow.back': 'home' },
      entry: assign({ pinInput: '', pin: null }),
      states: {
        editing: { on: pinRenewalEditing },
        invalid: { tags: ['error'], entry: 'countFailure', on: pinRenewalEditing },
      },
    },
    registering: {
      initial: 'submitting',
      on: { 'flow.back': 'home' },
      states: {
        submitting: {
          tags: ['busy'],
          entry: 'clearError',
          // A double submit cannot happen: the register call is not reachable again while in flight.
          on: { 'flow.back': {} },
          invoke: {
            id: 'registerPatient',
            src: 'registerPatient',
            input: ({ context }) => ({
              registrationToken: context.registrationToken ?? '',
              phone: context.phone ?? '',
              email: context.email,
              // Absent when the registration resumed on this page: the server has its hash.
              ...(context.pin ? { pin: context.pin } : {}),
              sessionId: context.sessionId ?? '',
              supplementaryData: context.supplementaryData ?? { departamento: '', ciudad_id: '' },
              kycResult: context.kycResult,
            }),
            onDone: [
              { guard: ({ event }) => event.output.success, target: '#onboarding.complete' },
              {
                guard: ({ event }) => isExistsAnswer(event.output),
                target: '#onboarding.patientExists',
              },
              {
                target: 'failed',
                actions: assign({
                  error: ({ event }) =>
                    withMessage('registerFailed', event.output.message || undefined),
                }),
              },
            ],
            onError: [
              {
                guard: ({ event }) => isExistsError(event.error),
                target: '#onboarding.patientExists',
              },
              {
                // The server's copy of the card refused the PIN: ask for another.
                guard: ({ event }) => isPinRefusedError(event.error),
                target: '#onboarding.pinRenewal.invalid',
                actions: assign({ error: { code: 'pinFromOwnData' } }),
              },
              {
                target: 'failed',
                actions: assign({ error: ({ event }) => registerErrorFrom(event.error) }),
              },
            ],
          },
        },
        failed: {
          tags: ['error'],
          on: { 'register.retry': 'submitting' },
        },
      },
    },
    // A child machine failed (a bug, not a patient's mistake): the spec's 'Algo salió mal, recargá la página.'
    unexpected: {
      tags: ['error'],
      entry: assign({ error: { code: 'unexpected' } }),
      on: { 'flow.back': 'home' },
    },
    complete: {
      type: 'final',
      // The PIN is not needed any more once the patient exists.
      entry: assign({ pin: null, pinInput: '' }),
    },
    patientExists: { type: 'final', entry: assign({ pin: null, pinInput: '' }) },
    home: { type: 'final', entry: assign({ pin: null, pinInput: '' }) },
  },
});

export type OnboardingMachine = typeof onboardingMachine;

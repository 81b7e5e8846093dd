import { assign, sendParent, setup } from 'xstate';
import { EMAIL_PATTERN } from '../../contract/onboarding';
import { cleanPhoneInput, phoneFromInput } from '../shared/phone';
import { sendCode } from './onboarding.actors';
import { isExistsAnswer, isExistsError, sendCodeErrorFrom, withMessage } from './onboarding.errors';
import type {
  FieldErrors,
  RegistrationFormContext,
  RegistrationFormEvent,
  RegistrationFormInput,
  RegistrationFormOutput,
} from './onboarding.types';
import type { InsightStateMeta } from '../insight/meta';

const EMAIL_MAX_LENGTH = 254;

const isEmailAcceptable = (emailInput: string): boolean => {
  const email = emailInput.trim();
  return email === '' || EMAIL_PATTERN.test(email);
};

const noFieldErrors: FieldErrors = { phone: null, email: null };

/** A new form: nothing typed. */
export const initialRegistrationFormContext: RegistrationFormContext = {
  phoneInput: '',
  emailInput: '',
  fieldErrors: noFieldErrors,
  phone: null,
  email: null,
  resendAfterSeconds: null,
  error: null,
  failures: 0,
  codeSent: null,
};

/** Step 0 again after the code step's back arrow: the number and e-mail as they were sent. */
function contextFrom(input: RegistrationFormInput): RegistrationFormContext {
  const codeSent = input?.codeSent ?? null;
  if (!codeSent) return initialRegistrationFormContext;
  return {
    ...initialRegistrationFormContext,
    // After the fixed +595: the national number without its leading 0.
    phoneInput: codeSent.phone.replace(/^0/, ''),
    emailInput: codeSent.email ?? '',
    codeSent: codeSent.secondsLeft > 0 ? codeSent : null,
  };
}

/** Edits on the form, in every state where it is editable; back ends the wizard. */
const editable = {
  'phone.change': { actions: 'assignPhoneInput' },
  'phone.blur': { actions: 'checkPhone' },
  'email.change': { actions: 'assignEmailInput' },
  'email.blur': { actions: 'checkEmail' },
  'form.submit': [
    {
      // The code already on its way to this number (issue 29 item 11): no new send (the server
      // would answer 'Demasiados intentos' within the wait), back to the code step.
      guard: 'isCodeAlreadySent',
      target: 'sent',
      actions: ['assignContact', 'assignCodeSentWait'],
    },
    { guard: 'isValid', target: 'sending', actions: 'assignContact' },
    // reenter: every refused submit counts (the focus goes back to the field to fix)
    { target: 'invalid', reenter: true, actions: 'assignSubmitErrors' },
  ],
  'flow.back': { actions: 'backToWizard' },
} as const;

/**
 * Step 0 'Registrate', the wizard's `registrationForm` child: the mobile (machines/shared/input.ts
 * rule) and an optional e-mail, then POST /start. It ends with the contact the code went to, or with
 * the mobile already a patient's; the wizard decides what follows.
 */
export const registrationFormMachine = setup({
  types: {
    meta: {} as InsightStateMeta,
    context: {} as RegistrationFormContext,
    input: {} as RegistrationFormInput,
    events: {} as RegistrationFormEvent,
    output: {} as RegistrationFormOutput,
    tags: {} as 'busy' | 'error',
  },
  actors: { sendCode },
  guards: {
    isValid: ({ context }) =>
      phoneFromInput(context.phoneInput) !== null && isEmailAcceptable(context.emailInput),
    isCodeAlreadySent: ({ context }) =>
      context.codeSent !== null &&
      phoneFromInput(context.phoneInput) === context.codeSent.phone &&
      isEmailAcceptable(context.emailInput),
  },
  delays: {
    /** what is left of the code's resend wait: after it, a new send is allowed */
    codeSentWait: ({ context }) => (context.codeSent?.secondsLeft ?? 0) * 1000,
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
    /** the code step starts its resend countdown from what was left of it */
    assignCodeSentWait: assign({
      resendAfterSeconds: ({ context }) => context.codeSent?.secondsLeft ?? null,
    }),
    countFailure: assign({ failures: ({ context }) => context.failures + 1 }),
    clearError: assign({ error: null }),
    /** Back ends the wizard, except while the code is being sent. */
    backToWizard: sendParent({ type: 'flow.back' }),
  },
}).createMachine({
  id: 'registrationForm',
  meta: { insight: { step: 'registration' } },
  context: ({ input }) => contextFrom(input),
  initial: 'editing',
  // Past the resend wait, the same number gets a new code (the server allows it again).
  after: {
    codeSentWait: {
      guard: ({ context }) => context.codeSent !== null,
      actions: assign({ codeSent: null }),
    },
  },
  states: {
    editing: { on: editable },
    invalid: { tags: ['error'], entry: 'countFailure', on: editable },
    // Locked: no edits, no second submit and no back while the code is being sent.
    sending: {
      tags: ['busy'],
      invoke: {
        id: 'sendCode',
        src: 'sendCode',
        input: ({ context }) => {
          // Set by the valid submit that entered this state (assignContact).
          const phone = context.phone!;
          return context.email ? { phone, email: context.email } : { phone };
        },
        onDone: [
          {
            guard: ({ event }) => event.output.success,
            target: 'sent',
            actions: assign({
              resendAfterSeconds: ({ event }) => event.output.resendAfterSeconds ?? null,
            }),
          },
          { guard: ({ event }) => isExistsAnswer(event.output), target: 'exists' },
          {
            target: 'failed',
            actions: assign({
              error: ({ event }) => withMessage('startFailed', event.output.message || undefined),
            }),
          },
        ],
        onError: [
          { guard: ({ event }) => isExistsError(event.error), target: 'exists' },
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
        ...editable,
        'phone.change': { target: 'editing', actions: ['assignPhoneInput', 'clearError'] },
        'email.change': { target: 'editing', actions: ['assignEmailInput', 'clearError'] },
      },
    },
    sent: {
      type: 'final',
      output: ({ context }): RegistrationFormOutput => ({
        outcome: 'sent',
        phone: context.phone!,
        email: context.email,
        resendAfterSeconds: context.resendAfterSeconds,
      }),
    },
    exists: { type: 'final', output: { outcome: 'exists' } satisfies RegistrationFormOutput },
  },
  // The final state's own output (the code sent, or the patient exists).
  output: ({ event }) => event.output as RegistrationFormOutput,
});

export type RegistrationFormMachine = typeof registrationFormMachine;

import { assign, sendParent, setup } from 'xstate';
import { PIN_LENGTH } from '../../contract/login';
import { isAcceptablePin } from '../../contract/pin';
import { PRIVACY_VERSION, TERMS_VERSION } from '../../contract/terms';
import { onlyDigits } from '../shared/input';
import { savePin } from './onboarding.actors';
import { failureOf } from './onboarding.errors';
import type {
  PinContext,
  PinCreationInput,
  PinEvent,
  PinOutput,
  PinRenewalInput,
} from './onboarding.types';
import type { InsightStateMeta } from '../insight/meta';

/** Nothing typed yet: what both PIN steps start from. */
export const emptyPinContext = {
  pinInput: '',
  termsAccepted: false,
  pin: null,
  error: null,
  failures: 0,
} satisfies Partial<PinContext>;

/** The rules and edits both PIN steps share (contract/pin.ts decides what a PIN may be). */
const pinSetup = <TInput>() =>
  setup({
    types: {
      meta: {} as InsightStateMeta,
      context: {} as PinContext,
      events: {} as PinEvent,
      input: {} as TInput,
      output: {} as PinOutput,
      tags: {} as 'busy' | 'error',
    },
    actors: { savePin },
    guards: {
      hasPinTyped: ({ context }) => context.pinInput.length > 0,
      hasPinAndTerms: ({ context }) => context.pinInput.length > 0 && context.termsAccepted,
      isPinChoiceValid: ({ context }) => context.termsAccepted && isAcceptablePin(context.pinInput),
      isRenewedPinValid: ({ context }) => isAcceptablePin(context.pinInput, context.ownData),
      wasRefused: ({ context }) => context.error !== null,
    },
    actions: {
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
      assignTermsRequired: assign({ error: { code: 'termsRequired' } }),
      assignRenewedPinInvalid: assign({
        error: ({ context }) => ({
          code: isAcceptablePin(context.pinInput) ? 'pinFromOwnData' : 'pinInvalid',
        }),
      }),
      assignPin: assign({ pin: ({ context }) => context.pinInput, error: null }),
      countFailure: assign({ failures: ({ context }) => context.failures + 1 }),
      /** Back ends the wizard, except while the PIN is being saved. */
      backToWizard: sendParent({ type: 'flow.back' }),
    },
  });

/** The chosen PIN, for the wizard (it keeps it in memory until the register call). */
const chosen = {
  type: 'final',
  output: ({ context }: { context: PinContext }): PinOutput => ({ pin: context.pin! }),
} as const;

/** Edits on step 2's form; after an error, any edit starts over from `editing`. */
const creationEditing = {
  'pin.change': { target: 'editing', actions: 'assignPinInput' },
  'terms.change': { target: 'editing', actions: 'assignTerms' },
  'form.submit': [
    { guard: 'isPinChoiceValid', target: 'saving', actions: 'assignPin' },
    { guard: 'hasPinAndTerms', target: 'invalid', reenter: true, actions: 'assignPinInvalid' },
    { guard: 'hasPinTyped', target: 'invalid', reenter: true, actions: 'assignTermsRequired' },
  ],
  'flow.back': { actions: 'backToWizard' },
} as const;

/**
 * Step 2 'Creá tu propio PIN', the wizard's `pinCreation` child: a PIN the product accepts and the
 * terms, kept server-side with the registration (its hash: a lost page does not ask for it again).
 */
export const pinCreationMachine = pinSetup<PinCreationInput>().createMachine({
  id: 'pinCreation',
  meta: { insight: { step: 'pin' } },
  context: ({ input }) => ({
    ...emptyPinContext,
    save: input,
    ownData: {},
  }),
  initial: 'editing',
  states: {
    editing: { on: creationEditing },
    invalid: { tags: ['error'], entry: 'countFailure', on: creationEditing },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'savePin',
        src: 'savePin',
        // Both set by the valid submit that entered this state, on this machine's own input.
        input: ({ context }) => ({
          ...context.save!,
          pin: context.pin!,
          termsAccepted: true as const,
          // The versions /tyc shows (this bundle's): the server refuses others (terms_outdated).
          termsVersion: TERMS_VERSION,
          privacyVersion: PRIVACY_VERSION,
        }),
        onDone: 'saved',
        onError: {
          target: 'saveFailed',
          actions: assign({ error: ({ event }) => failureOf('savePinFailed', event.error) }),
        },
      },
    },
    saveFailed: { tags: ['error'], entry: 'countFailure', on: creationEditing },
    saved: chosen,
  },
  output: ({ event }) => event.output as PinOutput,
});

/** A new PIN once the card is read: not banned and not made from the card's data. */
const renewalEditing = {
  'pin.change': { target: 'editing', actions: 'assignPinInput' },
  'form.submit': [
    { guard: 'isRenewedPinValid', target: 'chosen', actions: 'assignPin' },
    { guard: 'hasPinTyped', target: 'invalid', reenter: true, actions: 'assignRenewedPinInvalid' },
  ],
  'flow.back': { actions: 'backToWizard' },
} as const;

/**
 * 'Elegí otro PIN', the wizard's `pinRenewal` child: the PIN chosen at step 2 is made from the card
 * just read (or the server's copy of the card refused it at register), so another is asked for
 * before the patient is created.
 */
export const pinRenewalMachine = pinSetup<PinRenewalInput>().createMachine({
  id: 'pinRenewal',
  meta: { insight: { step: 'pin' } },
  context: ({ input }) => ({
    ...emptyPinContext,
    save: null,
    ownData: input.ownData,
    error: input.refused ? { code: 'pinFromOwnData' as const } : null,
  }),
  initial: 'editing',
  states: {
    // The server's refusal at register opens the step with its reason under the field.
    editing: { always: { guard: 'wasRefused', target: 'invalid' }, on: renewalEditing },
    invalid: { tags: ['error'], entry: 'countFailure', on: renewalEditing },
    chosen,
  },
  output: ({ event }) => event.output as PinOutput,
});

export type PinCreationMachine = typeof pinCreationMachine;
export type PinRenewalMachine = typeof pinRenewalMachine;

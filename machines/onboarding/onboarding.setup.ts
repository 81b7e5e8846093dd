import { assign, enqueueActions, setup } from 'xstate';
import { otpMachine } from '../otp/otp.machine';
import {
  forgetRegistration,
  loadKyc,
  resendOnboardingCode,
  restoreRegistration,
  validateOnboardingCode,
} from './onboarding.actors';
import { handoffMachine } from './handoff.machine';
import { linkOpeningMachine } from './link.machine';
import { pinCreationMachine, pinRenewalMachine } from './pin.machine';
import { registeringMachine } from './registering.machine';
import { registrationFormMachine } from './registration.machine';
import type { KycMachine } from '../kyc/kyc.machine';
import type { KycInput } from '../kyc/kyc.types';
import { linkRefusalUpdate, registrationUpdate } from './onboarding.steps';
import type { OnboardingContext, OnboardingEvent, OnboardingInput } from './onboarding.types';
import type { InsightStateMeta } from '../insight/meta';

/** The wizard's types, children and shared actions (onboarding.machine.ts is its states). */
export const onboardingSetup = setup({
  types: {
    context: {} as OnboardingContext,
    events: {} as OnboardingEvent,
    input: {} as OnboardingInput,
    tags: {} as 'busy' | 'error',
    meta: {} as InsightStateMeta,
    children: {} as {
      registrationForm: 'registrationForm';
      otp: 'otp';
      pinCreation: 'pinCreation';
      pinRenewal: 'pinRenewal';
      handoff: 'handoff';
      linkOpening: 'linkOpening';
      preloadKyc: 'loadKyc';
      loadKyc: 'loadKyc';
      registering: 'registering';
      restore: 'restoreRegistration';
      forget: 'forgetRegistration';
    },
  },
  actors: {
    registrationForm: registrationFormMachine,
    otp: otpMachine.provide({
      actors: { validateCode: validateOnboardingCode, resendCode: resendOnboardingCode },
    }),
    pinCreation: pinCreationMachine,
    pinRenewal: pinRenewalMachine,
    handoff: handoffMachine,
    linkOpening: linkOpeningMachine,
    registering: registeringMachine,
    loadKyc,
    restoreRegistration,
    forgetRegistration,
  },
  actions: {
    clearError: assign({ error: null }),
    assignLinkRefusal: assign(({ event }) => linkRefusalUpdate(event)),
    assignKycOutput: assign(({ event }) =>
      event.type === 'xstate.done.actor.kyc'
        ? {
            sessionId: event.output.sessionId,
            kycResult: event.output.kycResult,
            supplementaryData: event.output.supplementaryData,
          }
        : {},
    ),
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
        canHandoff: context.linkToken === null,
      };
      enqueue.spawnChild(logic, { id: 'kyc', input } as { input: KycInput });
      enqueue.assign({ kycResume: null });
    }),
    assignRegistration: assign(({ context, event }) => registrationUpdate(context, event)),
  },
});

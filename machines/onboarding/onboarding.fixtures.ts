import type { AnyMachineSnapshot, SnapshotFrom } from 'xstate';
import { otpFixtures } from '../otp/otp.fixtures';
import { onboardingMachine } from './onboarding.machine';
import { initialOnboardingContext } from './onboarding.steps';
import {
  FIXTURE_KYC_OUTPUT,
  FIXTURE_LINK_TOKEN,
  FIXTURE_REGISTRATION_TOKEN,
  handoffFixtures,
  linkOpeningFixtures,
  pinCreationFixtures,
  pinRenewalFixtures,
  registeringFixtures,
  registrationFormFixtures,
} from './steps.fixtures';
import type { OnboardingContext } from './onboarding.types';

export { FIXTURE_REGISTRATION_TOKEN };

type OnboardingSnapshot = SnapshotFrom<typeof onboardingMachine>;
type StepChild =
  | 'registrationForm'
  | 'otp'
  | 'pinCreation'
  | 'pinRenewal'
  | 'handoff'
  | 'linkOpening'
  | 'registering';

const empty: OnboardingContext = initialOnboardingContext;
const contact: OnboardingContext = {
  ...empty,
  phone: '0981123456',
  email: 'maria.gonzalez@example.com.py',
  resendAfterSeconds: 30,
};
const registered: OnboardingContext = { ...contact, registrationToken: FIXTURE_REGISTRATION_TOKEN };
const withPin: OnboardingContext = { ...registered, pin: '482915' };
const afterKyc: OnboardingContext = { ...withPin, ...FIXTURE_KYC_OUTPUT };

const at = (
  value: Parameters<typeof onboardingMachine.resolveState>[0]['value'],
  context: OnboardingContext,
) => onboardingMachine.resolveState({ value, context });

/**
 * The wizard on a step with that step's child restored at one of the child's own fixtures, the way
 * a persisted snapshot carries its children: an actor started from it (a story, a test) has the
 * child running in the state shown.
 */
const withStepChild = (
  snapshot: OnboardingSnapshot,
  id: StepChild,
  child: AnyMachineSnapshot,
): OnboardingSnapshot =>
  ({
    ...snapshot,
    children: { [id]: { snapshot: child, src: id, syncSnapshot: false } },
  }) as unknown as OnboardingSnapshot;

/** The wizard on a step, for each of that step's child fixtures (the stories of the children). */
const onboardingAt = {
  registration: (child: AnyMachineSnapshot) =>
    withStepChild(at({ registration: 'ready' }, empty), 'registrationForm', child),
  pinCreation: (child: AnyMachineSnapshot) =>
    withStepChild(at('pinCreation', registered), 'pinCreation', child),
  pinRenewal: (child: AnyMachineSnapshot) =>
    withStepChild(at('pinRenewal', { ...afterKyc, pin: null }), 'pinRenewal', child),
  handoff: (child: AnyMachineSnapshot) => withStepChild(at('handoff', withPin), 'handoff', child),
  registering: (child: AnyMachineSnapshot) =>
    withStepChild(at('registering', afterKyc), 'registering', child),
  linkOpening: (child: AnyMachineSnapshot) =>
    withStepChild(
      at('linkOpening', { ...empty, linkToken: FIXTURE_LINK_TOKEN }),
      'linkOpening',
      child,
    ),
};

const rf = registrationFormFixtures;
const pc = pinCreationFixtures;
const pr = pinRenewalFixtures;
const hf = handoffFixtures;
const rg = registeringFixtures;

/**
 * One named snapshot per leaf state of the wizard and of its steps' children (and variant worth
 * seeing), for stories and tests. Each name starts with the wizard's state (`registrationInvalid`
 * is the wizard on registration with its form child invalid); a step with a child carries it, restored
 * at one of the child's own fixtures (steps.fixtures.ts, otp.fixtures.ts).
 */
export const onboardingFixtures = {
  /**
   * A page opened or reloaded, while the wizard asks for the registration this browser holds
   * (issue 43 item 8): step 0 as the page first paints it, usable meanwhile.
   */
  registrationRestoring: withStepChild(
    at({ registration: 'restoring' }, empty),
    'registrationForm',
    rf.editing,
  ),
  registrationEditing: onboardingAt.registration(rf.editing),
  registrationEditingFilled: onboardingAt.registration(rf.editingFilled),
  registrationEditingPhoneInline: onboardingAt.registration(rf.editingPhoneInline),
  registrationInvalid: onboardingAt.registration(rf.invalid),
  registrationInvalidEmail: onboardingAt.registration(rf.invalidEmail),
  registrationSending: onboardingAt.registration(rf.sending),
  registrationFailed: onboardingAt.registration(rf.failed),
  registrationFailedStart: onboardingAt.registration(rf.failedStart),
  registrationFailedServerMessage: onboardingAt.registration(rf.failedServerMessage),
  registrationFailedTooManyAttempts: onboardingAt.registration(rf.failedTooManyAttempts),
  registrationSent: onboardingAt.registration(rf.sent),
  registrationExists: onboardingAt.registration(rf.exists),
  verification: withStepChild(at('verification', contact), 'otp', otpFixtures.editing),
  pinCreationEditing: onboardingAt.pinCreation(pc.editing),
  pinCreationEditingReady: onboardingAt.pinCreation(pc.editingReady),
  pinCreationInvalid: onboardingAt.pinCreation(pc.invalid),
  pinCreationInvalidTerms: onboardingAt.pinCreation(pc.invalidTerms),
  pinCreationSaving: onboardingAt.pinCreation(pc.saving),
  pinCreationSaveFailed: onboardingAt.pinCreation(pc.saveFailed),
  pinCreationSaved: onboardingAt.pinCreation(pc.saved),
  welcome: at('welcome', withPin),
  /** The mobile proved again after a lost page: the registration continues at the welcome. */
  welcomeResumed: at('welcome', { ...withPin, pin: null, resumed: true }),
  handoffSending: onboardingAt.handoff(hf.sending),
  handoffWaiting: onboardingAt.handoff(hf.waiting),
  handoffWaitingOpened: onboardingAt.handoff(hf.waitingOpened),
  handoffWaitingSelfie: onboardingAt.handoff(hf.waitingSelfie),
  handoffWaitingDocument: onboardingAt.handoff(hf.waitingDocument),
  handoffWaitingNoCamera: withStepChild(
    at('handoff', { ...withPin, cameraMissing: true }),
    'handoff',
    hf.waitingNoCamera,
  ),
  handoffFailed: onboardingAt.handoff(hf.failed),
  handoffStopped: onboardingAt.handoff(hf.stopped),
  handoffDone: onboardingAt.handoff(hf.done),
  /** The phone that opened the SMS link, while its registration loads. */
  linkOpening: onboardingAt.linkOpening(linkOpeningFixtures.opening),
  linkOpeningOpened: onboardingAt.linkOpening(linkOpeningFixtures.opened),
  linkOpeningRefused: onboardingAt.linkOpening(linkOpeningFixtures.refused),
  linkRefused: at('linkRefused', {
    ...empty,
    linkToken: FIXTURE_LINK_TOKEN,
    error: linkOpeningFixtures.refused.context.error,
  }),
  /** A real link opened again after its registration finished (issue 29 item 16). */
  linkRefusedComplete: at('linkRefused', {
    ...empty,
    linkToken: FIXTURE_LINK_TOKEN,
    error: { code: 'linkRegistrationComplete' },
  }),
  kycLoading: at({ kyc: 'loading' }, withPin),
  kycLoadFailed: at({ kyc: 'loadFailed' }, { ...withPin, error: { code: 'kycLoadFailed' } }),
  kycRunning: at({ kyc: 'running' }, withPin),
  /** The card of a patient born 12/04/1990 (document 4.567.890) who chose 120490 at step 2. */
  pinRenewalEditing: onboardingAt.pinRenewal(pr.editing),
  pinRenewalEditingTyped: onboardingAt.pinRenewal(pr.editingTyped),
  pinRenewalInvalid: onboardingAt.pinRenewal(pr.invalid),
  pinRenewalInvalidBanned: onboardingAt.pinRenewal(pr.invalidBanned),
  pinRenewalChosen: onboardingAt.pinRenewal(pr.chosen),
  registeringSubmitting: onboardingAt.registering(rg.submitting),
  registeringFailed: onboardingAt.registering(rg.failed),
  registeringFailedServerMessage: onboardingAt.registering(rg.failedServerMessage),
  registeringFailedInvalidResponse: onboardingAt.registering(rg.failedInvalidResponse),
  registeringFailedNetwork: onboardingAt.registering(rg.failedNetwork),
  registeringRegistered: onboardingAt.registering(rg.registered),
  registeringExists: onboardingAt.registering(rg.exists),
  registeringPinRefused: onboardingAt.registering(rg.pinRefused),
  registeringCancelled: onboardingAt.registering(rg.cancelled),
  unexpected: at('unexpected', { ...withPin, error: { code: 'unexpected' } }),
  complete: at('complete', { ...afterKyc, pin: null }),
  patientExists: at('patientExists', contact),
  /** A back or cancel with a registration: this browser forgets it on the way home. */
  leaving: at('leaving', registered),
  home: at('home', empty),
};

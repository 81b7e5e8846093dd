import { pinOwnDataOf } from '../../contract/pin';
import type { RegisterRequest, RegistrationResume, ResumeStep } from '../../contract/onboarding';
import type { KycResult, KycResume } from '../kyc/kyc.types';
import type { LinkOutput, OnboardingContext } from './onboarding.types';

/**
 * What the wizard hands from one step to the next (onboarding.machine.ts): the verified
 * registration, where it continues, and the values a step's child needs as its input.
 */

/** The card's data the PIN must not come from, once the document is read (empty before). */
export const ownDataOf = (kycResult: KycResult | null) =>
  kycResult?.id_data ? pinOwnDataOf(kycResult.id_data) : {};

/** A person asked for the selfie again (issue 30): the server continues at 'welcome'. */
const isRepeatedSelfie = (r: RegistrationResume) =>
  r.resumeAt === 'welcome' && r.case?.status === 'repeat' && r.case.repeatStep === 'selfie';

/**
 * Where step 4 continues for a resumed registration: its passed selfie, its read document; with a
 * case (issue 30), the case itself, the complementary data a person's approval leads to, or the
 * one step a person asked for again.
 */
function kycResumeOf(r: RegistrationResume): KycResume | null {
  if (r.resumeAt === 'document')
    return r.retake ? { at: 'document', retake: r.retake } : { at: 'document' };
  if (r.resumeAt === 'review' && r.idData)
    return { at: 'review', kycResult: { success: true, kyc_complete: true, id_data: r.idData } };
  if (r.resumeAt === 'case' && r.case) return { at: 'case', case: r.case };
  if (r.resumeAt === 'supplementary' && r.idData) return { at: 'supplementary', idData: r.idData };
  if (isRepeatedSelfie(r)) return { at: 'selfie' };
  return null;
}

/**
 * A value the wizard's order guarantees in the state that reads it (the verified registration after
 * step 1, step 0's mobile on step 1), for a child's required input: a missing one is a bug, and the
 * wizard stops with this error instead of calling the server with an empty value.
 */
export function known<T>(value: T | null, what: string): T {
  if (value === null) throw new Error(`onboarding: no ${what} in this state`);
  return value;
}

/** A new wizard: nothing typed, nothing kept. */
export const initialOnboardingContext: OnboardingContext = {
  phone: null,
  email: null,
  resendAfterSeconds: null,
  pin: null,
  sessionId: null,
  kycResult: null,
  supplementaryData: null,
  error: null,
  registrationToken: null,
  resumed: false,
  kycResume: null,
  linkToken: null,
  pinRefused: false,
  codeSent: null,
  cameraMissing: false,
};

/**
 * The mobile is proved (validate-otp, or the SMS link on the phone): the registration continues at
 * the first step it has not finished. Both children's outputs carry `registration`.
 */
const registrationOf = (event: object): RegistrationResume | null =>
  'output' in event
    ? ((event.output as { registration?: RegistrationResume | null }).registration ?? null)
    : null;
const resumeAt = (step: ResumeStep | ResumeStep[]) => ({
  guard: ({ event }: { event: object }) => {
    const at = registrationOf(event)?.resumeAt;
    return at !== undefined && ([] as ResumeStep[]).concat(step).includes(at);
  },
  actions: 'assignRegistration' as const,
});
export const resumeTransitions = [
  { ...resumeAt('pin'), target: '#onboarding.pinCreation' },
  {
    // The selfie a person asked for again: straight to it, with its notice.
    guard: ({ event }: { event: object }) => {
      const r = registrationOf(event);
      return r !== null && isRepeatedSelfie(r);
    },
    actions: 'assignRegistration' as const,
    target: '#onboarding.kyc',
  },
  { ...resumeAt('welcome'), target: '#onboarding.welcome' },
  {
    ...resumeAt(['document', 'review', 'case', 'supplementary']),
    target: '#onboarding.kyc',
  },
  // A server that kept no registration: nothing to continue with.
  { target: '#onboarding.unexpected' },
];

/** The phone's link was refused: why, and the way on by SMS code. */
export const linkRefusal = {
  guard: ({ event }: { event: { output?: LinkOutput } }) => event.output?.outcome === 'refused',
  target: '#onboarding.linkRefused',
  actions: 'assignLinkRefusal' as const,
};

/** Every child's failure is a bug, not a patient's mistake: 'Algo salió mal, recargá la página.' */
export const childBroke = '#onboarding.unexpected';

/** The verified registration on the wizard (validate-otp's or the link's answer). */
export function registrationUpdate(
  context: OnboardingContext,
  event: object,
): Partial<OnboardingContext> {
  const r = registrationOf(event);
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
}

/** Why the phone's link was refused, for the wizard's linkRefused page. */
export function linkRefusalUpdate(event: object): Partial<OnboardingContext> {
  const out = 'output' in event ? (event.output as LinkOutput) : null;
  return out?.outcome === 'refused' ? { error: out.error } : {};
}

/** What the final register call sends (the `registering` child's input): all the wizard gathered. */
export const registerRequestOf = (context: OnboardingContext): RegisterRequest => ({
  registrationToken: known(context.registrationToken, 'registration'),
  phone: known(context.phone, 'mobile'),
  email: context.email,
  // Absent when the registration resumed on this page: the server has its hash.
  ...(context.pin ? { pin: context.pin } : {}),
  sessionId: known(context.sessionId, 'KYC session'),
  supplementaryData: known(context.supplementaryData, 'supplementary data'),
  kycResult: context.kycResult,
});

import { inspect } from '../../app/inspector';
import { useAddressToken } from '../../app/useAddressToken';
import { OnboardingActor } from './onboarding.context';
import { OnboardingScreens } from './OnboardingScreens';

/**
 * /onboarding: the wizard's actor lives as long as the page; a reload continues the registration
 * this browser holds (its token in an HttpOnly cookie, issue 43 item 8), and on another device
 * verifying the mobile again continues the registration the server kept (docs/registration.md).
 */
export default function OnboardingFlow() {
  return (
    <OnboardingActor.Provider options={{ inspect, input: {} }}>
      <OnboardingScreens />
    </OnboardingActor.Provider>
  );
}

/** The SMS link's token: the whole fragment, `#<token>`. */
const linkTokenOf = (fragment: string) => fragment;

/** /onboarding/celular#<token>: the phone continues the registration the SMS link was made for. */
export function ContinueOnPhoneFlow() {
  const linkToken = useAddressToken(linkTokenOf);
  return (
    <OnboardingActor.Provider options={{ inspect, input: { linkToken } }}>
      <OnboardingScreens />
    </OnboardingActor.Provider>
  );
}

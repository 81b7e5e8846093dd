import { useEffect, useState } from 'react';
import { inspect } from '../../app/inspector';
import { OnboardingActor } from './onboarding.context';
import { OnboardingScreens } from './OnboardingScreens';

/**
 * /onboarding: the wizard's actor lives as long as the page; a reload starts over at step 0, and
 * verifying the mobile again continues the registration the server kept (docs/registration.md).
 */
export default function OnboardingFlow() {
  return (
    <OnboardingActor.Provider options={{ inspect, input: {} }}>
      <OnboardingScreens />
    </OnboardingActor.Provider>
  );
}

/** The link's token, from the fragment (never sent to a server, never in a logged URL). */
const linkTokenOf = () =>
  typeof window === 'undefined' ? null : window.location.hash.slice(1) || null;

/** /onboarding/celular#<token>: the phone continues the registration the SMS link was made for. */
export function ContinueOnPhoneFlow() {
  const [linkToken] = useState(linkTokenOf);
  // Out of the address bar and the history once read: a back or a shared screen shows no token.
  useEffect(() => {
    window.history.replaceState(window.history.state, '', window.location.pathname);
  }, []);
  return (
    <OnboardingActor.Provider options={{ inspect, input: { linkToken } }}>
      <OnboardingScreens />
    </OnboardingActor.Provider>
  );
}

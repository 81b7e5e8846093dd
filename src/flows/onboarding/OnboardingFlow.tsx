import { inspect } from '../../app/inspector';
import { OnboardingActor } from './onboarding.context';
import { OnboardingScreens } from './OnboardingScreens';

/** /onboarding: the wizard's actor lives as long as the page; a reload starts over (docs/decisions.md). */
export default function OnboardingFlow() {
  return (
    <OnboardingActor.Provider options={{ inspect, input: {} }}>
      <OnboardingScreens />
    </OnboardingActor.Provider>
  );
}

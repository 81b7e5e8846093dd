import { ComingSoonPage } from '../../pages/ComingSoonPage';
import { landing } from '../../copy/es';

/** Replaced by the onboarding wizard (issue 4). */
export default function OnboardingFlow() {
  return <ComingSoonPage title={landing.register} back="/" />;
}

import { createActorContext } from '@xstate/react';
import { onboardingMachine } from '../../../machines/onboarding/onboarding.machine';

export const OnboardingActor = createActorContext(onboardingMachine);

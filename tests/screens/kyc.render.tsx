import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { fromPromise } from 'xstate';
import type { KycInput } from '../../machines/kyc/kyc.types';
import { onboardingFixtures } from '../../machines/onboarding/onboarding.fixtures';
import { onboardingMachine } from '../../machines/onboarding/onboarding.machine';
import { OnboardingActor } from '../../src/flows/onboarding/onboarding.context';
import { KycScreen } from '../../src/flows/onboarding/screens/KycScreen';
import { harness } from '../machines/kyc.harness';

/** The KYC screens on a KYC actor whose camera, polling and calls the test drives. */
export function renderKyc(input: KycInput = {}, sessions?: Parameters<typeof harness>[0]) {
  const h = harness(sessions, false, { input });
  const wizard = onboardingMachine.provide({
    actors: { loadKyc: fromPromise(async () => h.machine) },
  });
  render(
    <MemoryRouter>
      <OnboardingActor.Provider logic={wizard} options={{ snapshot: onboardingFixtures.welcome }}>
        <KycScreen kyc={h.actor} />
      </OnboardingActor.Provider>
    </MemoryRouter>,
  );
  act(() => void h.actor.start());
  return h;
}

export const heading = (name: string) => screen.getByRole('heading', { level: 1, name });
export const button = (name: string) => screen.getByRole('button', { name });
export const settle = (fn: () => unknown) =>
  act(async () => {
    await fn();
  });

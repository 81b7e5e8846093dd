import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { fromCallback, fromPromise, type SnapshotFrom } from 'xstate';
import type { KycMachine } from '../../machines/kyc/kyc.machine';
import { onboardingFixtures } from '../../machines/onboarding/onboarding.fixtures';
import { handoffMachine } from '../../machines/onboarding/handoff.machine';
import { onboardingMachine } from '../../machines/onboarding/onboarding.machine';
import { common } from '../../src/copy/es';
import { onboarding as copy } from '../../src/copy/es.onboarding';
import { OnboardingActor } from '../../src/flows/onboarding/onboarding.context';
import { OnboardingScreens } from '../../src/flows/onboarding/OnboardingScreens';
import type { SendLinkResponse } from '../../contract/onboarding';
import { controlled } from '../machines/controlled';

/** 'Seguí en tu celular' and the phone's link screens (issue 18), from their fixtures. */
function renderAt(snapshot: SnapshotFrom<typeof onboardingMachine>) {
  const sendLink = controlled<SendLinkResponse, { registrationToken: string }>();
  const wizard = onboardingMachine.provide({
    actors: {
      handoff: handoffMachine.provide({
        actors: { sendLink: sendLink.logic, registrationStatus: fromCallback(() => () => {}) },
      }),
      loadKyc: fromPromise(() => new Promise<KycMachine>(() => {})),
    },
  });
  render(
    <MemoryRouter initialEntries={['/onboarding']}>
      <OnboardingActor.Provider logic={wizard} options={{ snapshot }}>
        <OnboardingScreens />
      </OnboardingActor.Provider>
    </MemoryRouter>,
  );
  return { links: sendLink.calls };
}

const button = (name: string) => screen.getByRole('button', { name });

describe("'Seguí en tu celular'", () => {
  it('says where the SMS went, for how long the link lasts and how far the phone got', () => {
    renderAt(onboardingFixtures.handoffWaitingSelfie);
    expect(screen.getByRole('heading', { level: 1, name: copy.handoff.title })).toHaveFocus();
    expect(screen.getByText(copy.handoff.intro('0981 123 456'))).toBeInTheDocument();
    expect(screen.getByText(copy.handoff.expiry(20))).toBeInTheDocument();
    expect(screen.getByTestId('handoff-stage')).toHaveTextContent(copy.handoff.stages.selfie);
    expect(screen.getByTestId('handoff-stage')).toHaveAttribute('role', 'status');
  });

  it("'Reenviar el enlace' sends another; 'Usar la cámara de este dispositivo' goes back to step 4", async () => {
    const h = renderAt(onboardingFixtures.handoffWaiting);
    fireEvent.click(button(copy.handoff.resend));
    expect(screen.getByText(copy.handoff.sending)).toBeInTheDocument();
    expect(h.links).toHaveLength(1);
    await act(async () => {
      h.links[0]!.answer.reject(new TypeError('Failed to fetch'));
    });
    expect(screen.getByRole('alert')).toHaveTextContent(
      'No pudimos enviar el SMS con el enlace. Intentá de nuevo.',
    );
    fireEvent.click(button(copy.handoff.useThisDevice));
    expect(screen.getByText(common.loading)).toBeInTheDocument();
  });

  it("a device without a camera is not offered 'Usar la cámara de este dispositivo' (issue 29 item 12)", () => {
    renderAt(onboardingFixtures.handoffWaitingNoCamera);
    expect(button(copy.handoff.resend)).toBeEnabled();
    expect(screen.queryByRole('button', { name: copy.handoff.useThisDevice })).toBeNull();
  });

  it('a registration that moved on offers neither a new link nor this camera', () => {
    renderAt(onboardingFixtures.handoffStopped);
    expect(screen.queryByRole('button', { name: copy.handoff.resend })).toBeNull();
    expect(screen.queryByRole('button', { name: copy.handoff.useThisDevice })).toBeNull();
    expect(button(copy.cancel)).toBeEnabled();
  });
});

describe("the phone's link", () => {
  it("a refused link shows the server's reason; 'Ingresar mi celular' goes to step 0", () => {
    renderAt(onboardingFixtures.linkRefused);
    expect(screen.getByRole('alert')).toHaveTextContent(/Este enlace ya se usó/);
    fireEvent.click(button(copy.link.restart));
    expect(
      screen.getByRole('heading', { level: 1, name: copy.registration.title }),
    ).toBeInTheDocument();
  });

  it("a used link after the registration finished: 'Tu registro ya está completo. Ingresá.' and the login (issue 29 item 16)", () => {
    renderAt(onboardingFixtures.linkRefusedComplete);
    expect(screen.getByRole('alert')).toHaveTextContent('Tu registro ya está completo. Ingresá.');
    expect(screen.getByRole('link', { name: copy.goToLogin })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('button', { name: copy.link.restart })).toBeNull();
    expect(screen.queryByText(/Pedí uno nuevo/)).toBeNull();
  });
});

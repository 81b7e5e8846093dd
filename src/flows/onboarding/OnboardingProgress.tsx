import { useSelector } from '@xstate/react';
import styled from 'styled-components';
import type { ActorRefFrom } from 'xstate';
import type { KycMachine } from '../../../machines/kyc/kyc.machine';
import {
  ONBOARDING_PROGRESS_STEPS,
  selectKycActor,
  selectKycProgressStep,
  selectOnboardingProgress,
} from '../../../machines/onboarding/onboarding.selectors';
import { onboarding } from '../../copy/es.onboarding';
import { theme } from '../../theme/theme';
import { OnboardingActor } from './onboarding.context';

const ProgressLine = styled.p`
  margin: 0 0 12px;
  min-height: 1.25em;
  color: ${theme.colors.muted};
  font-weight: 600;
  font-size: 0.9375rem;
`;

/** 'Paso N de 8', or nothing off the numbered steps. */
const progressText = (step: number | null) =>
  step === null ? null : onboarding.progress(step, ONBOARDING_PROGRESS_STEPS);

/** The identity step's part, from its KYC child (which the wizard's own snapshot does not follow). */
function IdentityStep({ kyc }: { kyc: ActorRefFrom<KycMachine> }) {
  return progressText(useSelector(kyc, selectKycProgressStep));
}

/**
 * 'Paso N de 8' above every step (issue 43 item 6: the identity step's parts count as steps). It
 * stays mounted while the steps change below it (the wizard frames its steps in one Page), so its
 * polite live region is read once each time N changes; empty on the pages outside the numbered
 * steps.
 */
export function OnboardingProgress() {
  const step = OnboardingActor.useSelector((s) => selectOnboardingProgress(s)?.step ?? null);
  const kyc = OnboardingActor.useSelector(selectKycActor);
  return (
    <ProgressLine aria-live="polite" data-testid="onboarding-progress">
      {kyc ? <IdentityStep kyc={kyc} /> : progressText(step)}
    </ProgressLine>
  );
}

/** The same line over a KYC child the wizard does not run (the identity step's stories). */
export function KycProgress({ kyc }: { kyc: ActorRefFrom<KycMachine> }) {
  return (
    <ProgressLine aria-live="polite" data-testid="onboarding-progress">
      <IdentityStep kyc={kyc} />
    </ProgressLine>
  );
}

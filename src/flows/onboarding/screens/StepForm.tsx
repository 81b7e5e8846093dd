import type { ReactNode } from 'react';
import type { TypedValueHandlers } from '../../../components/useHydrated';
import { BackButton } from '../../../components/BackLink';
import { StepForm as Step } from '../../../components/StepForm';
import { onboarding } from '../../../copy/es.onboarding';

/** A wizard step with a form (src/components/StepForm) whose back arrow ends the wizard (home). */
export function StepForm({
  onBack,
  backDisabled = false,
  ...step
}: {
  title: string;
  intro: string;
  onBack: () => void;
  backDisabled?: boolean;
  onSubmit: () => void;
  busy?: boolean;
  adopt?: TypedValueHandlers;
  children: ReactNode;
}) {
  return (
    <Step
      {...step}
      back={<BackButton label={onboarding.backHome} onClick={onBack} disabled={backDisabled} />}
    />
  );
}

import { useSelector } from '@xstate/react';
import { useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { PinRenewalMachine } from '../../../../machines/onboarding/pin.machine';
import { selectPinRenewalView } from '../../../../machines/onboarding/onboarding.selectors';
import { SubmitButton } from '../../../components/Button';
import { NewPinField } from '../../../components/PinField';
import { useFocusAfterFailure } from '../../../components/useFocusAfterFailure';
import { errorText, onboarding, onboardingErrors } from '../../../copy/es.onboarding';
import { StepForm } from '../../../components/StepForm';

const copy = onboarding.pinRenewal;

/**
 * After the card is read, before the patient is created: the PIN chosen at step 2 comes from the
 * card's birth date or number, so another one is asked for (contract/pin.ts).
 */
export function PinRenewalScreen({ pinStep }: { pinStep: ActorRefFrom<PinRenewalMachine> }) {
  const view = useSelector(pinStep, selectPinRenewalView);
  const { send } = pinStep;
  const pin = useRef<HTMLInputElement>(null);
  useFocusAfterFailure(view.failures, () => pin.current);
  return (
    <StepForm
      title={copy.title}
      intro={copy.intro}
      onBack={() => send({ type: 'flow.back' })}
      onSubmit={() => send({ type: 'form.submit' })}
    >
      <NewPinField
        ref={pin}
        label={copy.pinLabel}
        value={view.pinInput}
        onValueChange={(value) => send({ type: 'pin.change', value })}
        error={errorText(view.pinError, onboardingErrors)}
        required
      />
      <SubmitButton disabled={!view.canSubmit} reason={view.missing ? copy.missing : null}>
        {copy.submit}
      </SubmitButton>
    </StepForm>
  );
}

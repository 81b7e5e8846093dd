import { useSelector } from '@xstate/react';
import { useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { PinCreationMachine } from '../../../../machines/onboarding/pin.machine';
import { selectPinCreationView } from '../../../../machines/onboarding/onboarding.selectors';
import { SubmitButton } from '../../../components/Button';
import { Checkbox } from '../../../components/Checkbox';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { NewPinField } from '../../../components/PinField';
import { useFocusAfterFailure } from '../../../components/useFocusAfterFailure';
import { VisuallyHidden } from '../../../components/VisuallyHidden';
import { errorText, onboarding, onboardingErrors } from '../../../copy/es.onboarding';
import { Tips, TipsTitle } from './shared.styles';
import { StepForm } from '../../../components/StepForm';

const copy = onboarding.pinCreation;

/**
 * Step 2 'Creá tu propio PIN': tips, masked numeric PIN (with show/hide), terms (opened in a new
 * tab), 'Validar' with what is missing beside it while disabled. Each error under its field.
 */
export function PinCreationScreen({ pinStep }: { pinStep: ActorRefFrom<PinCreationMachine> }) {
  const view = useSelector(pinStep, selectPinCreationView);
  const { send } = pinStep;
  const pin = useRef<HTMLInputElement>(null);
  const terms = useRef<HTMLInputElement>(null);
  useFocusAfterFailure(view.failures, () => (view.focus === 'terms' ? terms : pin).current);
  const saveError = errorText(view.saveError, onboardingErrors);
  return (
    <StepForm
      title={copy.title}
      intro={copy.intro}
      onBack={() => send({ type: 'flow.back' })}
      onSubmit={() => send({ type: 'form.submit' })}
    >
      <section aria-labelledby="pin-tips-title">
        <TipsTitle id="pin-tips-title">{copy.tipsTitle}</TipsTitle>
        <Tips>
          {copy.tips.map((tip) => (
            <li key={tip}>{tip}</li>
          ))}
        </Tips>
      </section>
      <NewPinField
        ref={pin}
        label={copy.pinLabel}
        value={view.pinInput}
        onValueChange={(value) => send({ type: 'pin.change', value })}
        error={errorText(view.pinError, onboardingErrors)}
        required
      />
      <Checkbox
        ref={terms}
        checked={view.termsAccepted}
        onCheckedChange={(accepted) => send({ type: 'terms.change', accepted })}
        error={errorText(view.termsError, onboardingErrors)}
        label={
          <>
            {copy.termsBefore}
            <a href="/tyc" target="_blank" rel="noopener noreferrer">
              {copy.termsLink}
              <VisuallyHidden>{copy.termsNewTab}</VisuallyHidden>
            </a>
          </>
        }
      />
      {saveError ? <ErrorBanner message={saveError} /> : null}
      <SubmitButton
        disabled={!view.canSubmit}
        reason={view.missing ? copy.missing[view.missing] : null}
      >
        {view.saving ? copy.saving : copy.submit}
      </SubmitButton>
    </StepForm>
  );
}

import { PIN_LENGTH } from '../../../../contract/auth';
import { selectPinCreationView } from '../../../../machines/onboarding/onboarding.selectors';
import { SubmitButton } from '../../../components/Button';
import { Checkbox } from '../../../components/Checkbox';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { TextField } from '../../../components/TextField';
import { VisuallyHidden } from '../../../components/VisuallyHidden';
import { errorText, onboarding, onboardingErrors } from '../../../copy/es.onboarding';
import { OnboardingActor } from '../onboarding.context';
import { Tips, TipsTitle } from './shared.styles';
import { StepForm } from './StepForm';

const copy = onboarding.pinCreation;

/** Step 2 'Creá tu propio PIN': tips, masked numeric PIN, terms (opened in a new tab), 'Validar'. */
export function PinCreationScreen() {
  const view = OnboardingActor.useSelector(selectPinCreationView);
  const { send } = OnboardingActor.useActorRef();
  const error = errorText(view.error, onboardingErrors);
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
      <TextField
        label={copy.pinLabel}
        name="new-pin"
        type="password"
        inputMode="numeric"
        autoComplete="new-password"
        placeholder={copy.pinPlaceholder}
        maxLength={PIN_LENGTH}
        value={view.pinInput}
        onValueChange={(value) => send({ type: 'pin.change', value })}
        required
      />
      <Checkbox
        checked={view.termsAccepted}
        onCheckedChange={(accepted) => send({ type: 'terms.change', accepted })}
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
      {error ? <ErrorBanner message={error} /> : null}
      <SubmitButton disabled={!view.canSubmit}>{copy.submit}</SubmitButton>
    </StepForm>
  );
}

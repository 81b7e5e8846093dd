import { PIN_LENGTH } from '../../../../contract/auth';
import { selectNewPinView } from '../../../../machines/recovery/recovery.selectors';
import { BackLink } from '../../../components/BackLink';
import { SubmitButton } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { StepForm } from '../../../components/StepForm';
import { TextField } from '../../../components/TextField';
import { errorText, recovery, recoveryErrors } from '../../../copy/es.recovery';
import { RecoveryActor } from '../recovery.context';

const copy = recovery.newPin;

/** Step 2 'Nuevo PIN': masked, digits only, at most 6, the PIN rules; back to /login. */
export function NewPinScreen() {
  const view = RecoveryActor.useSelector(selectNewPinView);
  const { send } = RecoveryActor.useActorRef();
  const error = errorText(view.error, recoveryErrors);
  return (
    <StepForm
      back={<BackLink to="/login" label={recovery.backToLogin} disabled={view.saving} />}
      title={copy.title}
      intro={copy.intro}
      onSubmit={() => send({ type: 'form.submit' })}
      busy={view.saving}
    >
      <TextField
        label={copy.pinLabel}
        name="new-pin"
        type="password"
        inputMode="numeric"
        autoComplete="new-password"
        placeholder={copy.pinPlaceholder}
        maxLength={PIN_LENGTH}
        value={view.pin}
        onValueChange={(value) => send({ type: 'pin.change', value })}
        readOnly={view.saving}
        required
      />
      {error ? <ErrorBanner message={error} /> : null}
      <SubmitButton disabled={!view.canSubmit}>
        {view.saving ? copy.submitting : copy.submit}
      </SubmitButton>
    </StepForm>
  );
}

import { useRef } from 'react';
import { selectNewPinView } from '../../../../machines/recovery/recovery.selectors';
import { BackLink } from '../../../components/BackLink';
import { SubmitButton } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { NewPinField } from '../../../components/PinField';
import { StepForm } from '../../../components/StepForm';
import { useFocusAfterFailure } from '../../../components/useFocusAfterFailure';
import { errorText, recovery, recoveryErrors } from '../../../copy/es.recovery';
import { RecoveryActor } from '../recovery.context';

const copy = recovery.newPin;

/**
 * Step 2 'Nuevo PIN': masked (with show/hide), digits only, at most 6, the PIN rules (not banned,
 * not from the document number; the server adds the birth date); back to /login. A refused PIN's
 * message sits under the field, which takes the focus again.
 */
export function NewPinScreen() {
  const view = RecoveryActor.useSelector(selectNewPinView);
  const { send } = RecoveryActor.useActorRef();
  const pin = useRef<HTMLInputElement>(null);
  useFocusAfterFailure(view.failures, () => pin.current);
  const error = errorText(view.error, recoveryErrors);
  return (
    <StepForm
      back={<BackLink to="/login" label={recovery.backToLogin} disabled={view.saving} />}
      title={copy.title}
      intro={copy.intro}
      onSubmit={() => send({ type: 'form.submit' })}
      busy={view.saving}
    >
      <NewPinField
        ref={pin}
        label={copy.pinLabel}
        value={view.pin}
        onValueChange={(value) => send({ type: 'pin.change', value })}
        error={errorText(view.pinError, recoveryErrors)}
        readOnly={view.saving}
        required
      />
      {error ? <ErrorBanner message={error} /> : null}
      <SubmitButton
        disabled={!view.canSubmit}
        reason={view.missing ? recovery.missing[view.missing] : null}
      >
        {view.saving ? copy.submitting : copy.submit}
      </SubmitButton>
    </StepForm>
  );
}

import { useRef } from 'react';
import { DOCUMENT_MAX } from '../../../../machines/shared/input';
import { selectRequestView } from '../../../../machines/recovery/recovery.selectors';
import { BackLink } from '../../../components/BackLink';
import { SubmitButton } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { PhoneField } from '../../../components/PhoneField';
import { StepForm } from '../../../components/StepForm';
import { TextField } from '../../../components/TextField';
import { useFocusAfterFailure } from '../../../components/useFocusAfterFailure';
import { errorText, recovery, recoveryErrors } from '../../../copy/es.recovery';
import { RecoveryActor } from '../recovery.context';

const copy = recovery.request;

/** Step 0 'Recuperar Pin': document number and registered mobile; back to /login. */
export function RequestScreen() {
  const view = RecoveryActor.useSelector(selectRequestView);
  const { send } = RecoveryActor.useActorRef();
  const error = errorText(view.error, recoveryErrors);
  const documento = useRef<HTMLInputElement>(null);
  const celular = useRef<HTMLInputElement>(null);
  useFocusAfterFailure(
    view.failures,
    () => (view.focus === 'celular' ? celular : documento).current,
  );
  return (
    <StepForm
      back={<BackLink to="/login" label={recovery.backToLogin} disabled={view.sending} />}
      title={copy.title}
      intro={copy.intro}
      onSubmit={() => send({ type: 'form.submit' })}
      busy={view.sending}
      adopt={{
        numero_documento: (value) => send({ type: 'documento.change', value }),
        celular: (value) => send({ type: 'celular.change', value }),
      }}
    >
      <TextField
        ref={documento}
        label={copy.documentoLabel}
        name="numero_documento"
        inputMode="numeric"
        autoComplete="username"
        placeholder={copy.documentoPlaceholder}
        maxLength={DOCUMENT_MAX}
        value={view.documento}
        onValueChange={(value) => send({ type: 'documento.change', value })}
        error={view.documentoError ? recoveryErrors[view.documentoError] : null}
        readOnly={view.sending}
        required
      />
      <PhoneField
        ref={celular}
        label={copy.celularLabel}
        name="celular"
        placeholder={copy.celularPlaceholder}
        hint={copy.celularHint}
        value={view.celular}
        onValueChange={(value) => send({ type: 'celular.change', value })}
        error={view.celularError ? recoveryErrors[view.celularError] : null}
        readOnly={view.sending}
        required
      />
      {error ? <ErrorBanner message={error} /> : null}
      <SubmitButton
        disabled={!view.canSubmit}
        reason={view.missing ? recovery.missing[view.missing] : null}
      >
        {view.sending ? copy.submitting : copy.submit}
      </SubmitButton>
    </StepForm>
  );
}

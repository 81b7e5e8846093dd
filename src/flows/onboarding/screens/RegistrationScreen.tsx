import { useSelector } from '@xstate/react';
import { useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { RegistrationFormMachine } from '../../../../machines/onboarding/registration.machine';
import { selectRegistrationView } from '../../../../machines/onboarding/onboarding.selectors';
import { SubmitButton } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { PhoneField } from '../../../components/PhoneField';
import { TextField } from '../../../components/TextField';
import { useFocusAfterFailure } from '../../../components/useFocusAfterFailure';
import { errorText, onboarding, onboardingErrors } from '../../../copy/es.onboarding';
import { StepForm } from '../../../components/StepForm';

const copy = onboarding.registration;

/** Step 0 'Registrate' (the wizard's form child): Paraguayan mobile after a fixed +595, optional e-mail. */
export function RegistrationScreen({ form }: { form: ActorRefFrom<RegistrationFormMachine> }) {
  const view = useSelector(form, selectRegistrationView);
  const { send } = form;
  const error = errorText(view.error, onboardingErrors);
  const phone = useRef<HTMLInputElement>(null);
  const email = useRef<HTMLInputElement>(null);
  // After a refused submit: the first field to fix (the phone when the code could not be sent).
  useFocusAfterFailure(view.failures, () => (view.focus === 'email' ? email : phone).current);
  return (
    <StepForm
      title={copy.title}
      intro={copy.intro}
      onBack={() => send({ type: 'flow.back' })}
      backDisabled={!view.canGoBack}
      onSubmit={() => send({ type: 'form.submit' })}
      busy={view.sending}
      adopt={{
        celular: (value) => send({ type: 'phone.change', value }),
        email: (value) => send({ type: 'email.change', value }),
      }}
    >
      <PhoneField
        ref={phone}
        label={copy.phoneLabel}
        name="celular"
        prefix={copy.phonePrefix}
        placeholder={copy.phonePlaceholder}
        hint={copy.phoneHint}
        value={view.phoneInput}
        onValueChange={(value) => send({ type: 'phone.change', value })}
        onBlur={() => send({ type: 'phone.blur' })}
        error={view.phoneError ? onboardingErrors[view.phoneError] : null}
        readOnly={view.sending}
        required
      />
      <TextField
        ref={email}
        label={copy.emailLabel}
        name="email"
        type="email"
        inputMode="email"
        autoComplete="email"
        placeholder={copy.emailPlaceholder}
        value={view.emailInput}
        onValueChange={(value) => send({ type: 'email.change', value })}
        onBlur={() => send({ type: 'email.blur' })}
        error={view.emailError ? onboardingErrors[view.emailError] : null}
        readOnly={view.sending}
      />
      {error ? <ErrorBanner message={error} /> : null}
      <SubmitButton disabled={!view.canSubmit}>
        {view.sending ? copy.submitting : copy.submit}
      </SubmitButton>
    </StepForm>
  );
}

import { useRef, type FormEvent } from 'react';
import styled from 'styled-components';
import { DOCUMENT_MAX } from '../../../machines/shared/input';
import { selectLoginView } from '../../../machines/login/login.selectors';
import { BackLink } from '../../components/BackLink';
import { SubmitButton } from '../../components/Button';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Heading } from '../../components/Heading';
import { Logo } from '../../components/Logo';
import { PinField } from '../../components/PinField';
import { AppLink } from '../../components/Navigation';
import { Header, Page, Stack } from '../../components/Page';
import { TextField } from '../../components/TextField';
import { useFocusAfterFailure } from '../../components/useFocusAfterFailure';
import { useAdoptTypedValues } from '../../components/useHydrated';
import { common, errorText, login as copy, loginErrors } from '../../copy/es';
import { LoginActor } from './login.context';

const Brand = styled.div`
  display: flex;
  justify-content: center;
  margin-bottom: 8px;
`;

const Center = styled.p`
  text-align: center;
  margin: 0;
  a[aria-disabled='true'] {
    pointer-events: none;
    opacity: 0.5;
  }
`;

export function LoginScreen() {
  const view = LoginActor.useSelector(selectLoginView);
  const { send } = LoginActor.useActorRef();
  const form = useRef<HTMLFormElement>(null);
  const pin = useRef<HTMLInputElement>(null);
  // A wrong PIN (or any failed login): back to the PIN field, not to <body>.
  useFocusAfterFailure(view.failures, () => pin.current);
  // The page is prerendered: what the patient typed before React took over goes to the machine.
  useAdoptTypedValues(form, {
    numero_documento: (value) => send({ type: 'documento.change', value }),
    pin: (value) => send({ type: 'pin.change', value }),
  });
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send({ type: 'form.submit' });
  };
  const error = errorText(view.error, loginErrors);
  return (
    <Page>
      <Header>
        <BackLink to="/" label={copy.backToHome} disabled={view.busy} />
      </Header>
      <Brand>
        <Logo size={72} title={common.appName} />
      </Brand>
      {/* POST, never GET: a submit before hydration must not put the PIN in a URL (and the
          button stays disabled until then). */}
      <form ref={form} method="post" onSubmit={onSubmit} noValidate aria-busy={view.busy}>
        <Stack>
          <Heading>{copy.title}</Heading>
          <TextField
            label={copy.documentoLabel}
            name="numero_documento"
            inputMode="numeric"
            autoComplete="username"
            placeholder={copy.documentoPlaceholder}
            maxLength={DOCUMENT_MAX}
            value={view.documento}
            onValueChange={(value) => send({ type: 'documento.change', value })}
            disabled={view.busy}
            required
          />
          <PinField
            ref={pin}
            label={copy.pinLabel}
            name="pin"
            autoComplete="current-password"
            placeholder={copy.pinPlaceholder}
            hint={copy.pinHint}
            value={view.pin}
            onValueChange={(value) => send({ type: 'pin.change', value })}
            disabled={view.busy}
            required
          />
          {error ? <ErrorBanner message={error} /> : null}
          <SubmitButton
            disabled={!view.canSubmit}
            reason={view.missing ? copy.missing[view.missing] : null}
          >
            {view.busy ? copy.submitting : copy.submit}
          </SubmitButton>
          <Center>
            <AppLink to="/recuperar-pin" disabled={view.busy}>
              {copy.forgotPin}
            </AppLink>
          </Center>
        </Stack>
      </form>
    </Page>
  );
}

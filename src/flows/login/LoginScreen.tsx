import { useRef, type FormEvent } from 'react';
import styled from 'styled-components';
import { DOCUMENT_MAX } from '../../../machines/shared/input';
import { selectLoginView } from '../../../machines/login/login.selectors';
import { BackLink } from '../../components/BackLink';
import { AppLinkButton, SubmitButton } from '../../components/Button';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Heading } from '../../components/Heading';
import { PinField } from '../../components/PinField';
import { AppLink } from '../../components/Navigation';
import { Header, Page, Stack } from '../../components/Page';
import { TextField } from '../../components/TextField';
import { useFocusAfterFailure } from '../../components/useFocusAfterFailure';
import { useAdoptTypedValues } from '../../components/useHydrated';
import { errorText, login as copy, loginErrors } from '../../copy/es';
import { theme } from '../../theme/theme';
import { LoginActor } from './login.context';

const Center = styled.p`
  text-align: center;
  margin: 0;
  a[aria-disabled='true'] {
    pointer-events: none;
    opacity: 0.5;
  }
`;

const Checking = styled.p`
  text-align: center;
  margin: 0;
  color: ${theme.colors.muted};
  /* Empty, it stays in the page (a live region must exist before its text) without a gap. */
  &:empty {
    margin-top: -16px;
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
  // Too many attempts (the account's lock or the address's cap): recovery is the way in now, so
  // it is offered as a button beside the message rather than the small link below.
  const locked = view.error?.code === 'tooManyAttempts';
  return (
    <Page logoSize={72}>
      <Header>
        <BackLink to="/" label={copy.backToHome} disabled={view.busy} />
      </Header>
      {/* POST, never GET: a submit before hydration must not put the PIN in a URL (and the
          button stays disabled until then). */}
      <form ref={form} method="post" onSubmit={onSubmit} noValidate aria-busy={view.busy}>
        <Stack>
          {/* Focused when the form appears in a running app, after a logout (issue 29 item 18);
              not on the prerendered page, where the first Tab reaches the back arrow. The title
              decides it: a useHydrated here would render the whole screen again, in one task,
              once hydration ends (issue 43 item 16). */}
          <Heading focusOnMount="client">{copy.title}</Heading>
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
          {locked ? (
            <AppLinkButton to="/recuperar-pin" $variant="secondary">
              {copy.forgotPin}
            </AppLinkButton>
          ) : null}
          <SubmitButton
            disabled={!view.canSubmit}
            reason={view.missing ? copy.missing[view.missing] : null}
          >
            {view.busy ? copy.submitting : copy.submit}
          </SubmitButton>
          {/* Always in the page: a checking that takes seconds (the server slows repeated
              failures down) is announced, and says more than the button's 'Validando...'. */}
          <Checking aria-live="polite">{view.busy ? copy.checking : null}</Checking>
          {locked ? null : (
            <Center>
              <AppLink to="/recuperar-pin" disabled={view.busy}>
                {copy.forgotPin}
              </AppLink>
            </Center>
          )}
        </Stack>
      </form>
    </Page>
  );
}

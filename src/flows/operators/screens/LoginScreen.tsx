import { selectLogin } from '../../../../machines/operators/operators.selectors';
import { errorText } from '../../../copy/es';
import { operador } from '../../../copy/es.operators';
import { Button } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { Heading } from '../../../components/Heading';
import { Muted, Page, Stack } from '../../../components/Page';
import { Busy } from './parts';
import { OperatorActor } from '../operators.context';

/** 'Ingresar con tu llave de acceso': the passkey is the only way in. */
export function LoginScreen() {
  const { busy, error, notice } = OperatorActor.useSelector(selectLogin);
  const { send } = OperatorActor.useActorRef();
  const message = errorText(error, operador.errors);
  return (
    <Page>
      <Stack>
        <Heading focusOnMount>{operador.login.title}</Heading>
        {notice ? <ErrorBanner tone="info" message={operador.notices[notice]} /> : null}
        <Muted>{operador.login.intro}</Muted>
        {message ? <ErrorBanner message={message} /> : null}
        <Button type="button" disabled={busy} onClick={() => send({ type: 'login.start' })}>
          {operador.login.submit}
        </Button>
        {busy ? <Busy>{operador.login.busy}</Busy> : null}
      </Stack>
    </Page>
  );
}

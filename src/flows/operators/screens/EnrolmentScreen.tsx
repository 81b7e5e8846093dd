import { selectEnrolment } from '../../../../machines/operators/operators.selectors';
import { errorText } from '../../../copy/es';
import { operador } from '../../../copy/es.operators';
import { Button } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { Heading } from '../../../components/Heading';
import { Muted, Page, Stack } from '../../../components/Page';
import { Busy } from './parts';
import { OperatorActor } from '../operators.context';

/** The enrolment link: who it is for, then 'Crear llave de acceso'. */
export function EnrolmentScreen() {
  const { status, operator, error, canRetry } = OperatorActor.useSelector(selectEnrolment);
  const { send } = OperatorActor.useActorRef();
  const message = errorText(error, operador.errors);
  return (
    <Page>
      <Stack>
        <Heading focusOnMount>{operador.enrolment.title}</Heading>
        {status === 'loading' ? <Busy>{operador.enrolment.loading}</Busy> : null}
        {operator ? (
          <>
            <p>{operador.enrolment.greeting(operator.nombre)}</p>
            <Muted>{operador.enrolment.role(operador.roles[operator.rol] ?? operator.rol)}</Muted>
            <Muted>{operador.enrolment.intro}</Muted>
          </>
        ) : null}
        {message ? <ErrorBanner message={message} /> : null}
        {status === 'ready' || status === 'registering' ? (
          <Button
            type="button"
            disabled={status === 'registering'}
            onClick={() => send({ type: 'enrol.start' })}
          >
            {operador.enrolment.submit}
          </Button>
        ) : null}
        {status === 'registering' ? <Busy>{operador.enrolment.busy}</Busy> : null}
        {status === 'failed' && canRetry ? (
          <Button type="button" onClick={() => send({ type: 'enrol.retry' })}>
            {operador.enrolment.retry}
          </Button>
        ) : null}
        {status === 'failed' ? (
          <Button type="button" $variant="secondary" onClick={() => send({ type: 'login.start' })}>
            {operador.enrolment.toLogin}
          </Button>
        ) : null}
      </Stack>
    </Page>
  );
}

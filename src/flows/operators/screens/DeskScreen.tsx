import styled from 'styled-components';
import {
  selectCaseActor,
  selectOperator,
  selectQueueActor,
} from '../../../../machines/operators/operators.selectors';
import { operador } from '../../../copy/es.operators';
import { Button } from '../../../components/Button';
import { Muted, Page, Stack } from '../../../components/Page';
import { Heading } from '../../../components/Heading';
import { CaseActor, OperatorActor, QueueActor } from '../operators.context';
import { CaseScreen } from './CaseScreen';
import { QueueScreen } from './QueueScreen';

const Bar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
  & > button {
    width: auto;
  }
`;

/** Logged in: who, 'Cerrar sesión', and the queue or the case the operator works. */
export function DeskScreen() {
  const { operator, loggingOut } = OperatorActor.useSelector(selectOperator);
  const queue = OperatorActor.useSelector(selectQueueActor);
  const kase = OperatorActor.useSelector(selectCaseActor);
  const { send } = OperatorActor.useActorRef();
  return (
    <Page wide>
      <Stack>
        <Bar>
          <Muted>
            {operator
              ? operador.header.operator(
                  operator.nombre,
                  operador.roles[operator.rol] ?? operator.rol,
                )
              : null}
          </Muted>
          <Button
            type="button"
            $variant="secondary"
            disabled={loggingOut}
            onClick={() => send({ type: 'session.logout' })}
          >
            {loggingOut ? operador.header.loggingOut : operador.header.logout}
          </Button>
        </Bar>
        {queue ? (
          <QueueActor.RefProvider actorRef={queue}>
            <QueueScreen />
          </QueueActor.RefProvider>
        ) : kase ? (
          <CaseActor.RefProvider actorRef={kase}>
            <CaseScreen />
          </CaseActor.RefProvider>
        ) : (
          <>
            <Heading>{operador.title}</Heading>
            <Muted role="status">{operador.header.loggingOut}</Muted>
          </>
        )}
      </Stack>
    </Page>
  );
}

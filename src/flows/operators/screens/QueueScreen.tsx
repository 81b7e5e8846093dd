import styled from 'styled-components';
import { selectQueue } from '../../../../machines/operators/operators.selectors';
import { errorText } from '../../../copy/es';
import { ageText, operador, operadorTerms, queueCopy } from '../../../copy/es.operators';
import { Button } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { Heading } from '../../../components/Heading';
import { Muted, Stack } from '../../../components/Page';
import { theme } from '../../../theme/theme';
import { QueueActor } from '../operators.context';
import { CodeEntryScreen } from './CodeEntryScreen';
import { Actions, Badge, Busy } from './parts';

const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  caption {
    text-align: left;
    color: ${theme.colors.muted};
    padding-bottom: 8px;
  }
  th,
  td {
    text-align: left;
    padding: 8px 6px;
    border-bottom: 1px solid ${theme.colors.border};
  }
`;

/** The queue: open cases oldest first (age and reason, no personal data), and the ways in. */
export function QueueScreen() {
  const view = QueueActor.useSelector(selectQueue);
  const { send } = QueueActor.useActorRef();
  if (view.status === 'code') return <CodeEntryScreen />;
  if (view.status === 'opening' || view.status === 'expired')
    return (
      <Stack>
        <Heading>{queueCopy.title}</Heading>
        <Muted role="status">
          {view.status === 'opening' ? queueCopy.opening : queueCopy.expired}
        </Muted>
      </Stack>
    );
  const busy = view.status === 'loading' || view.status === 'claiming';
  const message = errorText(view.error, operador.errors);
  return (
    <Stack>
      <Heading focusOnMount>{queueCopy.title}</Heading>
      {view.status === 'loading' ? (
        <Busy>{queueCopy.loading}</Busy>
      ) : (
        <Muted role="status">{queueCopy.total(view.total)}</Muted>
      )}
      {message ? <ErrorBanner message={message} /> : null}
      {view.nothingToTake ? <ErrorBanner tone="info" message={queueCopy.nothingToTake} /> : null}
      <Actions>
        <Button type="button" disabled={busy} onClick={() => send({ type: 'queue.claim' })}>
          {view.status === 'claiming' ? queueCopy.claiming : queueCopy.claim}
        </Button>
        <Button
          type="button"
          $variant="secondary"
          disabled={busy}
          onClick={() => send({ type: 'code.open' })}
        >
          {queueCopy.searchCode}
        </Button>
        <Button
          type="button"
          $variant="secondary"
          disabled={busy}
          onClick={() => send({ type: 'queue.refresh' })}
        >
          {queueCopy.refresh}
        </Button>
      </Actions>
      {view.status !== 'loading' && view.cases.length === 0 && !view.error ? (
        <Muted>{queueCopy.empty}</Muted>
      ) : null}
      {view.cases.length > 0 ? (
        <Table>
          <caption>{queueCopy.tableCaption}</caption>
          <thead>
            <tr>
              <th scope="col">{queueCopy.columns.age}</th>
              <th scope="col">{queueCopy.columns.kind}</th>
              <th scope="col">{queueCopy.columns.trigger}</th>
              <th scope="col">{queueCopy.columns.badge}</th>
            </tr>
          </thead>
          <tbody>
            {view.cases.map((c) => (
              <tr key={c.id}>
                <td>{ageText(c.ageMinutes)}</td>
                <td>{operadorTerms.kinds[c.kind]}</td>
                <td>{operadorTerms.triggers[c.trigger]}</td>
                <td>{c.needsSupervisor ? <Badge>{queueCopy.needsSupervisor}</Badge> : null}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      ) : null}
    </Stack>
  );
}

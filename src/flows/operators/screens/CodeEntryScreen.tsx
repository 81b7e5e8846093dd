import { selectCodeEntry } from '../../../../machines/operators/operators.selectors';
import { errorText } from '../../../copy/es';
import { operador, queueCopy } from '../../../copy/es.operators';
import { Button } from '../../../components/Button';
import { Heading } from '../../../components/Heading';
import { Muted, Stack } from '../../../components/Page';
import { TextField } from '../../../components/TextField';
import { QueueActor } from '../operators.context';

/** 'Buscar por código': the health-centre code, XXXX-XXXX as typed. */
export function CodeEntryScreen() {
  const { status, code, error, canSubmit } = QueueActor.useSelector(selectCodeEntry);
  const { send } = QueueActor.useActorRef();
  const fieldError =
    status === 'incomplete'
      ? queueCopy.code.incomplete
      : status === 'limited'
        ? queueCopy.code.limited(error?.retryAfterSeconds ?? 60)
        : errorText(error, operador.errors);
  return (
    <Stack>
      <Heading focusOnMount>{queueCopy.code.title}</Heading>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          send({ type: 'code.submit' });
        }}
      >
        <Stack>
          <Muted>{queueCopy.code.intro}</Muted>
          <TextField
            label={queueCopy.code.label}
            value={code}
            placeholder={queueCopy.code.placeholder}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            inputMode="text"
            error={fieldError}
            errorLive
            onValueChange={(value) => send({ type: 'code.change', value })}
          />
          <Button type="submit" disabled={!canSubmit}>
            {status === 'looking' ? queueCopy.code.looking : queueCopy.code.submit}
          </Button>
          <Button type="button" $variant="secondary" onClick={() => send({ type: 'code.cancel' })}>
            {queueCopy.code.cancel}
          </Button>
        </Stack>
      </form>
    </Stack>
  );
}

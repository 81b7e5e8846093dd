import { useSelector } from '@xstate/react';
import type { FormEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { CorrectMachine } from '../../../../machines/my-data/correct.machine';
import { selectCorrect } from '../../../../machines/my-data/correct.selectors';
import { AppLinkButton, Button } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { Muted } from '../../../components/Page';
import { SelectField } from '../../../components/SelectField';
import { TextField } from '../../../components/TextField';
import { myData } from '../../../copy/es.myData';
import { myDataCorrect as copy } from '../../../copy/es.myData.correct';
import { MyDataActor } from '../my-data.context';
import { MyDataFrame } from './MyDataFrame';
import { Item, List, Note, Section, SectionTitle } from './my-data.styles';

type Ref = ActorRefFrom<CorrectMachine>;
type View = ReturnType<typeof selectCorrect>;

/** Item 5: the patient's correction requests and their state, and a new one (child `correct`). */
export function CorrectScreen() {
  const ref = MyDataActor.useSelector((s) => s.children.correct) as Ref | undefined;
  return <MyDataFrame>{ref ? <CorrectSection actor={ref} /> : null}</MyDataFrame>;
}

function CorrectSection({ actor }: { actor: Ref }) {
  const v = useSelector(actor, selectCorrect);
  switch (v.screen) {
    case 'loading':
      return <Muted role="status">{copy.loading}</Muted>;
    case 'failed':
      return <Failure v={v} onRetry={() => actor.send({ type: 'retry' })} text={copy.loadFailed} />;
    case 'list':
      return <Requests v={v} onStart={() => actor.send({ type: 'correct.start' })} />;
    case 'choosing':
      return <Choose v={v} actor={actor} />;
    case 'writing':
      return <Write v={v} actor={actor} />;
    case 'sent':
      return (
        <Section aria-labelledby="correct-sent">
          <SectionTitle id="correct-sent">{copy.sentTitle}</SectionTitle>
          <p role="status">{v.sent ? copy.sent(myData.fields[v.sent.field]) : null}</p>
          <Button type="button" onClick={() => actor.send({ type: 'back' })}>
            {copy.backToList}
          </Button>
        </Section>
      );
  }
}

function Failure({ v, onRetry, text }: { v: View; onRetry?: () => void; text: string }) {
  if (v.sessionEnded)
    return (
      <>
        <ErrorBanner message={copy.sessionEnded} />
        <AppLinkButton to="/login">{copy.login}</AppLinkButton>
      </>
    );
  // A refusal the server explained (400, 409, 429) says why; anything else, the general sentence.
  const message = v.error?.serverMessage ?? text;
  return (
    <>
      <ErrorBanner message={message} />
      {onRetry ? (
        <Button type="button" onClick={onRetry}>
          {copy.retry}
        </Button>
      ) : null}
    </>
  );
}

function Requests({ v, onStart }: { v: View; onStart: () => void }) {
  return (
    <>
      <Muted>{copy.intro}</Muted>
      <Button type="button" onClick={onStart}>
        {copy.start}
      </Button>
      <Section aria-labelledby="correct-list">
        <SectionTitle id="correct-list">{copy.listTitle}</SectionTitle>
        {v.requests.length === 0 ? (
          <p>{copy.none}</p>
        ) : (
          <List aria-label={copy.listLabel}>
            {v.requests.map((r) => (
              <Item key={r.id}>
                <strong>{copy.stateOf(myData.fields[r.field], copy.states[r.state])}</strong>
                {r.asked ? <span>{copy.asked(r.asked)}</span> : null}
                <Note>{copy.askedOn(r.openedAt)}</Note>
                {r.decidedAt ? <Note>{copy.decidedOn(r.decidedAt)}</Note> : null}
                {r.rejectReason ? <span>{copy.rejectReasons[r.rejectReason]}</span> : null}
                {r.note ? <span>{copy.note(r.note)}</span> : null}
              </Item>
            ))}
          </List>
        )}
      </Section>
    </>
  );
}

function Choose({ v, actor }: { v: View; actor: Ref }) {
  return (
    <Section aria-labelledby="correct-choose">
      <SectionTitle id="correct-choose">{copy.chooseTitle}</SectionTitle>
      <Muted>{copy.chooseHint}</Muted>
      {v.identity.map(({ field, value }) => (
        <Button
          key={field}
          type="button"
          $variant="secondary"
          disabled={v.pending.has(field)}
          onClick={() => actor.send({ type: 'field.pick', field })}
        >
          {myData.fields[field]}
          {v.pending.has(field) ? ` (${copy.pendingTag})` : `: ${value ?? myData.empty}`}
        </Button>
      ))}
      <Button type="button" $variant="secondary" onClick={() => actor.send({ type: 'back' })}>
        {copy.back}
      </Button>
    </Section>
  );
}

function Write({ v, actor }: { v: View; actor: Ref }) {
  if (!v.field) return null;
  const label = myData.fields[v.field];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'send' });
  };
  const onValue = (value: string) => actor.send({ type: 'value.change', value });
  return (
    <Section aria-labelledby="correct-write">
      <SectionTitle id="correct-write">{copy.writeTitle(label)}</SectionTitle>
      <Muted>{copy.now(v.current)}</Muted>
      {v.error ? <Failure v={v} text={copy.sendFailed} /> : null}
      <form onSubmit={submit} noValidate>
        {v.choices ? (
          <SelectField
            label={copy.value}
            value={v.value}
            placeholder={copy.choose}
            options={v.choices.map((c) => ({ value: c, label: copy.genders[c] ?? c }))}
            onValueChange={onValue}
          />
        ) : (
          <TextField
            label={copy.value}
            hint={copy.valueHints[v.field]}
            value={v.value}
            inputMode={v.field === 'DocumentNumber' ? 'numeric' : undefined}
            maxLength={v.valueMax}
            onValueChange={onValue}
          />
        )}
        <TextField
          label={copy.reason}
          hint={copy.reasonHint}
          value={v.reason}
          maxLength={v.reasonMax}
          onValueChange={(reason) => actor.send({ type: 'reason.change', reason })}
        />
        <Button type="submit" disabled={!v.canSend || v.sending}>
          {v.sending ? copy.sending : copy.send}
        </Button>
      </form>
      <Button type="button" $variant="secondary" onClick={() => actor.send({ type: 'back' })}>
        {copy.back}
      </Button>
    </Section>
  );
}

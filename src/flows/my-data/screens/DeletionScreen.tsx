import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { DeletionMachine } from '../../../../machines/my-data/deletion.machine';
import {
  selectDeletionView,
  type DeletionView,
} from '../../../../machines/my-data/deletion.selectors';
import { selectDeletionActor } from '../../../../machines/my-data/my-data.selectors';
import { AppLinkButton, Button } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { Muted } from '../../../components/Page';
import { myDataDeletion as copy } from '../../../copy/es.myDataDeletion';
import { MyDataActor } from '../my-data.context';
import { CodeStep, PinStep } from './DeletionSteps';
import { MyDataFrame } from './MyDataFrame';
import { Section, SectionTitle } from './my-data.styles';

type Deletion = ActorRefFrom<DeletionMachine>;

/** Item 6: 'Eliminar mi cuenta', the screens of the `deletion` child. */
export function DeletionScreen() {
  const actor = MyDataActor.useSelector(selectDeletionActor);
  return <MyDataFrame>{actor ? <DeletionSection actor={actor} /> : null}</MyDataFrame>;
}

function DeletionSection({ actor }: { actor: Deletion }) {
  const view = useSelector(actor, selectDeletionView);
  const error = view.error ? <ErrorBanner message={copy.error(view.error)} /> : null;
  switch (view.screen) {
    case 'loading':
      return <Muted role="status">{copy.loading}</Muted>;
    case 'intro':
      return (
        <>
          <WhatHappens view={view} />
          <Button type="button" onClick={() => actor.send({ type: 'deletion.start' })}>
            {copy.start}
          </Button>
        </>
      );
    case 'pin':
      return <PinStep view={view} send={actor.send} error={error} />;
    case 'code':
      return <CodeStep view={view} send={actor.send} error={error} />;
    case 'pending':
      return (
        <Section aria-labelledby="deletion-pending">
          <SectionTitle id="deletion-pending">{copy.pendingTitle}</SectionTitle>
          {view.pending ? <p>{copy.pending(view.pending.dueAt)}</p> : null}
          <Muted>{copy.pendingSms}</Muted>
          {error}
          <Button
            type="button"
            disabled={view.busy}
            onClick={() => actor.send({ type: 'deletion.cancel' })}
          >
            {view.busy ? copy.cancelling : copy.cancel}
          </Button>
        </Section>
      );
    case 'cancelled':
      return (
        <Section aria-labelledby="deletion-cancelled">
          <SectionTitle id="deletion-cancelled">{copy.cancelledTitle}</SectionTitle>
          <p role="status">{copy.cancelled}</p>
          <Button
            type="button"
            $variant="secondary"
            onClick={() => actor.send({ type: 'deletion.start' })}
          >
            {copy.askAgain}
          </Button>
        </Section>
      );
    case 'failed':
      return (
        <>
          <ErrorBanner message={copy.loadFailed} />
          <Button type="button" onClick={() => actor.send({ type: 'load.retry' })}>
            {copy.retry}
          </Button>
        </>
      );
    case 'sessionEnded':
      return (
        <>
          <ErrorBanner message={copy.sessionEnded} />
          <AppLinkButton to="/login">{copy.login}</AppLinkButton>
        </>
      );
  }
}

/** What is deleted, what stays and why, the clinical record, and the wait. */
function WhatHappens({ view }: { view: DeletionView }) {
  return (
    <>
      <Section aria-labelledby="deletion-deleted">
        <SectionTitle id="deletion-deleted">{copy.deletedTitle}</SectionTitle>
        <ul>
          {copy.deleted.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </Section>
      <Section aria-labelledby="deletion-kept">
        <SectionTitle id="deletion-kept">{copy.keptTitle}</SectionTitle>
        <p>{copy.kept}</p>
      </Section>
      <Section aria-labelledby="deletion-clinical">
        <SectionTitle id="deletion-clinical">{copy.clinicalTitle}</SectionTitle>
        <p>{copy.clinical}</p>
      </Section>
      <p>{copy.wait(view.waitHours)}</p>
      <Muted>{copy.again}</Muted>
    </>
  );
}

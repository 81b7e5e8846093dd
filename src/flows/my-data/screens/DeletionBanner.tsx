import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { DeletionMachine } from '../../../../machines/my-data/deletion.machine';
import { selectDeletionView } from '../../../../machines/my-data/deletion.selectors';
import {
  selectDeletionActor,
  selectMyDataScreen,
} from '../../../../machines/my-data/my-data.selectors';
import { Button } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { myDataDeletion as copy } from '../../../copy/es.myDataDeletion';
import { MyDataActor } from '../my-data.context';

/** A pending deletion (item 6), on every other section of Mis datos: when, and the way to cancel. */
export function DeletionBanner() {
  const actor = MyDataActor.useSelector(selectDeletionActor);
  const screen = MyDataActor.useSelector(selectMyDataScreen);
  if (!actor || screen === 'deletion') return null;
  return <Pending actor={actor} />;
}

function Pending({ actor }: { actor: ActorRefFrom<DeletionMachine> }) {
  const view = useSelector(actor, selectDeletionView);
  const { send } = MyDataActor.useActorRef();
  if (view.screen !== 'pending' || !view.pending) return null;
  return (
    <>
      <ErrorBanner tone="info" message={copy.banner(view.pending.dueAt)} />
      <Button
        type="button"
        $variant="secondary"
        onClick={() => send({ type: 'section.show', section: 'deletion' })}
      >
        {copy.bannerAction}
      </Button>
    </>
  );
}

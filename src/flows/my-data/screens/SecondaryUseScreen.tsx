import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import {
  selectSecondaryUseActor,
  selectSecondaryUseView,
} from '../../../../machines/my-data/download.selectors';
import type { SecondaryUseMachine } from '../../../../machines/my-data/secondary-use.machine';
import { AppLinkButton, Button } from '../../../components/Button';
import { Checkbox } from '../../../components/Checkbox';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { Muted } from '../../../components/Page';
import { myData } from '../../../copy/es.myData';
import { secondaryUse as copy } from '../../../copy/es.myDataDownload';
import { MyDataActor } from '../my-data.context';
import { MyDataFrame } from './MyDataFrame';

/** Item 7: the opt-out of any use beyond the patient's care; the statistics hold no personal data. */
export function SecondaryUseScreen() {
  const actor = MyDataActor.useSelector(selectSecondaryUseActor);
  return <MyDataFrame>{actor ? <SecondaryUseSection actor={actor} /> : null}</MyDataFrame>;
}

function SecondaryUseSection({ actor }: { actor: ActorRefFrom<SecondaryUseMachine> }) {
  const view = useSelector(actor, selectSecondaryUseView);
  const retry = () => actor.send({ type: 'secondaryUse.retry' });
  return (
    <>
      <Muted>{copy.intro}</Muted>
      <p>{copy.statistics}</p>
      {view.screen === 'loading' ? <p role="status">{copy.loading}</p> : null}
      {view.screen === 'loadFailed' ? (
        <Failure message={copy.loadFailed} sessionEnded={view.sessionEnded} retry={retry} />
      ) : null}
      {view.screen === 'showing' ? (
        <>
          <Checkbox
            checked={view.optedOut}
            disabled={view.saving}
            label={copy.choice}
            onCheckedChange={(optedOut) => actor.send({ type: 'secondaryUse.choose', optedOut })}
          />
          <p role="status">
            {view.saving
              ? copy.saving
              : view.saved
                ? copy.saved
                : view.saveFailed
                  ? null
                  : view.optedOut
                    ? copy.optedOut(view.changedAt)
                    : copy.notOptedOut}
          </p>
          {view.saveFailed ? (
            <Failure message={copy.saveFailed} sessionEnded={view.sessionEnded} retry={retry} />
          ) : null}
        </>
      ) : null}
    </>
  );
}

/** A failure: log in again when the session ended, else try again (the choice stays shown). */
function Failure(props: { message: string; sessionEnded: boolean; retry: () => void }) {
  return (
    <>
      <ErrorBanner message={props.sessionEnded ? myData.sessionEnded : props.message} />
      {props.sessionEnded ? (
        <AppLinkButton to="/login">{myData.login}</AppLinkButton>
      ) : (
        <Button type="button" onClick={props.retry}>
          {copy.retry}
        </Button>
      )}
    </>
  );
}

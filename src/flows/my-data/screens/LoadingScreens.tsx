import { selectMyDataFailure } from '../../../../machines/my-data/my-data.selectors';
import { AppLinkButton, Button } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { Muted } from '../../../components/Page';
import { myData as copy } from '../../../copy/es.myData';
import { MyDataActor } from '../my-data.context';
import { MyDataFrame } from './MyDataFrame';

export function LoadingScreen() {
  return (
    <MyDataFrame>
      <Muted role="status">{copy.loading}</Muted>
    </MyDataFrame>
  );
}

/** The load failed: log in again (the session ended) or try again. */
export function FailedScreen() {
  const failure = MyDataActor.useSelector(selectMyDataFailure);
  const { send } = MyDataActor.useActorRef();
  return (
    <MyDataFrame>
      {failure?.sessionEnded ? (
        <>
          <ErrorBanner message={copy.sessionEnded} />
          <AppLinkButton to="/login">{copy.login}</AppLinkButton>
        </>
      ) : (
        <>
          <ErrorBanner message={copy.loadFailed} />
          <Button type="button" onClick={() => send({ type: 'load.retry' })}>
            {copy.retry}
          </Button>
        </>
      )}
    </MyDataFrame>
  );
}

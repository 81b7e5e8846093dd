import { selectUnexpectedError } from '../../../../machines/recovery/recovery.selectors';
import { BackButton } from '../../../components/BackLink';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { Heading } from '../../../components/Heading';
import { Header, Page, Stack } from '../../../components/Page';
import { errorText, recovery, recoveryErrors } from '../../../copy/es.recovery';
import { RecoveryActor } from '../recovery.context';

/** The code step failed as a machine: the spec's 'Algo salió mal, recargá la página.'; back to step 0. */
export function UnexpectedScreen() {
  const error = RecoveryActor.useSelector(selectUnexpectedError);
  const { send } = RecoveryActor.useActorRef();
  return (
    <Page>
      <Header>
        <BackButton label={recovery.backToRequest} onClick={() => send({ type: 'flow.back' })} />
      </Header>
      <Stack>
        <Heading focusOnMount>{recovery.unexpected.title}</Heading>
        <ErrorBanner message={errorText(error, recoveryErrors) ?? ''} />
      </Stack>
    </Page>
  );
}

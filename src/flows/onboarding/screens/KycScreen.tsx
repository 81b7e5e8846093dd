import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { KycMachine } from '../../../../machines/kyc/kyc.machine';
import { selectKycView } from '../../../../machines/kyc/kyc.selectors';
import { Button } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { Heading } from '../../../components/Heading';
import { Muted, Page, Stack } from '../../../components/Page';
import { errorText, kycErrors, onboarding } from '../../../copy/es.onboarding';
import { OnboardingActor } from '../onboarding.context';
import { Actions } from './shared.styles';

const copy = onboarding.kyc;

/**
 * Step 4, identity verification: for now its entry only ('Cargando...' while the session is
 * created, the failure with 'Reintentar', the spec's unexpected-step message). 'Cancelar' goes home.
 */
export function KycScreen({ kyc }: { kyc: ActorRefFrom<KycMachine> }) {
  const view = useSelector(kyc, selectKycView);
  const wizard = OnboardingActor.useActorRef();
  const error = errorText(view.error, kycErrors);
  return (
    <Page>
      <Stack aria-busy={view.busy}>
        <Heading focusOnMount>{copy.title}</Heading>
        {view.screen === 'loading' ? <Muted role="status">{copy.loading}</Muted> : null}
        {error ? <ErrorBanner message={error} /> : null}
        <Actions>
          {view.canRetry ? (
            <Button type="button" onClick={() => kyc.send({ type: 'kyc.retry' })}>
              {onboarding.retry}
            </Button>
          ) : null}
          <Button
            type="button"
            $variant="secondary"
            onClick={() => wizard.send({ type: 'flow.back' })}
          >
            {onboarding.cancel}
          </Button>
        </Actions>
      </Stack>
    </Page>
  );
}

import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { selectRegisteringView } from '../../../../machines/onboarding/onboarding.selectors';
import type { RegisteringMachine } from '../../../../machines/onboarding/registering.machine';
import { Button } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { Heading } from '../../../components/Heading';
import { Muted, Page, Stack } from '../../../components/Page';
import { errorText, onboarding, onboardingErrors } from '../../../copy/es.onboarding';
import { Actions } from './shared.styles';

const copy = onboarding.registering;

/** Between step 4 and 5: the final register call, its failure and retry. */
export function RegisteringScreen({
  registering,
}: {
  registering: ActorRefFrom<RegisteringMachine>;
}) {
  const view = useSelector(registering, selectRegisteringView);
  const { send } = registering;
  const error = errorText(view.error, onboardingErrors);
  return (
    <Page>
      <Stack aria-busy={view.submitting}>
        <Heading focusOnMount>{copy.title}</Heading>
        {view.submitting ? <Muted role="status">{copy.submitting}</Muted> : null}
        {error ? <ErrorBanner message={error} /> : null}
        {view.canRetry || view.canCancel ? (
          <Actions>
            {view.canRetry ? (
              <Button type="button" onClick={() => send({ type: 'register.retry' })}>
                {onboarding.retry}
              </Button>
            ) : null}
            {view.canCancel ? (
              <Button
                type="button"
                $variant="secondary"
                onClick={() => send({ type: 'flow.back' })}
              >
                {onboarding.cancel}
              </Button>
            ) : null}
          </Actions>
        ) : null}
      </Stack>
    </Page>
  );
}

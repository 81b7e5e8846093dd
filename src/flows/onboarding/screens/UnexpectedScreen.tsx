import { selectUnexpectedView } from '../../../../machines/onboarding/onboarding.selectors';
import { Button } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { Heading } from '../../../components/Heading';
import { Page, Stack } from '../../../components/Page';
import { errorText, onboarding, onboardingErrors } from '../../../copy/es.onboarding';
import { OnboardingActor } from '../onboarding.context';

/** A step broke in a way the patient cannot fix in place: say so and offer the way home. */
export function UnexpectedScreen() {
  const view = OnboardingActor.useSelector(selectUnexpectedView);
  const { send } = OnboardingActor.useActorRef();
  const error = errorText(view.error, onboardingErrors);
  return (
    <Page>
      <Stack>
        <Heading focusOnMount>{onboarding.unexpected.title}</Heading>
        {error ? <ErrorBanner message={error} /> : null}
        <Button type="button" $variant="secondary" onClick={() => send({ type: 'flow.back' })}>
          {onboarding.backHome}
        </Button>
      </Stack>
    </Page>
  );
}

import { selectLinkView } from '../../../../machines/onboarding/onboarding.selectors';
import { AppLinkButton, Button } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { Muted } from '../../../components/Page';
import { errorText, onboarding, onboardingErrors } from '../../../copy/es.onboarding';
import { OnboardingActor } from '../onboarding.context';
import { KycLayout } from './kyc/KycLayout';
import { Actions } from './shared.styles';

const copy = onboarding.link;

/** The phone opened the SMS link: its registration is on its way. */
export function LinkOpeningScreen() {
  return (
    <KycLayout title={copy.title} busy>
      <Muted role="status">{copy.opening}</Muted>
    </KycLayout>
  );
}

/**
 * The link was refused (used, expired, not valid): why, and the way on by SMS code; a real link
 * of a registration that finished: 'Tu registro ya está completo. Ingresá.' and the login.
 */
export function LinkRefusedScreen() {
  const view = OnboardingActor.useSelector(selectLinkView);
  const { send } = OnboardingActor.useActorRef();
  const error = errorText(view.error, onboardingErrors);
  return (
    <KycLayout title={copy.title}>
      {error ? <ErrorBanner message={error} /> : null}
      <Actions>
        {view.complete ? (
          <AppLinkButton to="/login">{onboarding.goToLogin}</AppLinkButton>
        ) : (
          <Button type="button" onClick={() => send({ type: 'link.restart' })}>
            {copy.restart}
          </Button>
        )}
      </Actions>
    </KycLayout>
  );
}

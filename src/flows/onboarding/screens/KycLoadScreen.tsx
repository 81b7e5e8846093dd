import { selectKycLoadView } from '../../../../machines/onboarding/onboarding.selectors';
import { Button } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { Muted } from '../../../components/Page';
import { common } from '../../../copy/es';
import { errorText, onboarding, onboardingErrors } from '../../../copy/es.onboarding';
import { OnboardingActor } from '../onboarding.context';
import { KycLayout } from './kyc/KycLayout';

/**
 * Step 4 while its code (its own chunk) is on the way: 'Cargando...'; when it could not be
 * downloaded (offline), the reason and 'Reintentar' instead of a blank page.
 */
export function KycLoadScreen() {
  const view = OnboardingActor.useSelector(selectKycLoadView);
  const { send } = OnboardingActor.useActorRef();
  const error = errorText(view.error, onboardingErrors);
  return (
    <KycLayout title={onboarding.identity.title} busy={view.loading}>
      {view.loading ? <Muted role="status">{common.loading}</Muted> : null}
      {error ? <ErrorBanner message={error} /> : null}
      {view.canRetry ? (
        <Button type="button" onClick={() => send({ type: 'kycLoad.retry' })}>
          {onboarding.retry}
        </Button>
      ) : null}
    </KycLayout>
  );
}

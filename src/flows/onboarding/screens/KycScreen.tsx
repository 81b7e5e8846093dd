import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { KycMachine } from '../../../../machines/kyc/kyc.machine';
import { selectKycView, selectSupplementaryActor } from '../../../../machines/kyc/kyc.selectors';
import { Button } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { Muted } from '../../../components/Page';
import { errorText, kyc, kycErrors } from '../../../copy/es.kyc';
import { onboarding } from '../../../copy/es.onboarding';
import { Spinner } from '../../../components/Spinner';
import { AssistNotice } from './kyc/AssistOffer';
import { AssistScreen } from './kyc/AssistScreen';
import { DocumentRegisteredScreen } from './kyc/DocumentRegisteredScreen';
import { DocumentScreen } from './kyc/DocumentScreen';
import { KycLayout } from './kyc/KycLayout';
import { RejectedScreen } from './kyc/RejectedScreen';
import { ReviewScreen } from './kyc/ReviewScreen';
import { SelfieScreen } from './kyc/SelfieScreen';
import { SupplementaryScreen } from './kyc/SupplementaryScreen';

const copy = kyc;

/** Step 4, identity verification: the KYC machine's sub-step to its screen. */
export function KycScreen({ kyc }: { kyc: ActorRefFrom<KycMachine> }) {
  const view = useSelector(kyc, selectKycView);
  switch (view.screen) {
    case 'selfie':
      return <SelfieScreen kyc={kyc} />;
    case 'frontal':
    case 'dorso':
      // keyed by side: the back is a new sub-step whose heading takes focus
      return <DocumentScreen key={view.screen} kyc={kyc} />;
    case 'verifying':
      return (
        <KycLayout title={copy.verifying.title} busy>
          <Spinner />
          <Muted role="status">{copy.verifying.body}</Muted>
        </KycLayout>
      );
    case 'documentRegistered':
      return <DocumentRegisteredScreen />;
    case 'rejected':
      return <RejectedScreen kyc={kyc} />;
    case 'review':
      return <ReviewScreen kyc={kyc} />;
    case 'supplementary':
    case 'done':
      return <SupplementaryStep kyc={kyc} />;
    case 'assist':
      return <AssistScreen kyc={kyc} />;
    default: {
      const error = errorText(view.error, kycErrors);
      return (
        <KycLayout title={copy.title} busy={view.busy}>
          {view.screen === 'loading' ? <Muted role="status">{copy.loading}</Muted> : null}
          {error ? <ErrorBanner message={error} /> : null}
          {view.canRetry ? (
            <Button type="button" onClick={() => kyc.send({ type: 'kyc.retry' })}>
              {onboarding.retry}
            </Button>
          ) : null}
        </KycLayout>
      );
    }
  }
}

/** 'Datos complementarios' on its child; a moment without it (ending, or restored) is a wait. */
function SupplementaryStep({ kyc }: { kyc: ActorRefFrom<KycMachine> }) {
  const supplementary = useSelector(kyc, selectSupplementaryActor);
  return supplementary ? (
    <SupplementaryScreen supplementary={supplementary} notice={<AssistNotice kyc={kyc} />} />
  ) : (
    <KycLayout title={copy.supplementary.title} busy>
      <AssistNotice kyc={kyc} />
      <Muted role="status">{copy.loading}</Muted>
    </KycLayout>
  );
}

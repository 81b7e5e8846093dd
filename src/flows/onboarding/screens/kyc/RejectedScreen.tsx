import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { KycMachine } from '../../../../../machines/kyc/kyc.machine';
import { selectKycView } from '../../../../../machines/kyc/kyc.selectors';
import { Button } from '../../../../components/Button';
import { ErrorBanner } from '../../../../components/ErrorBanner';
import { errorText, kyc, kycErrors } from '../../../../copy/es.kyc';
import { Tips, TipsTitle } from '../shared.styles';
import { AssistOffer } from './AssistOffer';
import { KycLayout } from './KycLayout';

const copy = kyc.rejected;

/** 'No pudimos validar tu identidad': the message, three tips and 'Reintentar' (back to the selfie). */
export function RejectedScreen({ kyc }: { kyc: ActorRefFrom<KycMachine> }) {
  const view = useSelector(kyc, selectKycView);
  return (
    <KycLayout title={copy.title}>
      <ErrorBanner message={errorText(view.error, kycErrors) ?? copy.defaultMessage} />
      <TipsTitle>{copy.tipsTitle}</TipsTitle>
      <Tips>
        {copy.tips.map((tip) => (
          <li key={tip}>{tip}</li>
        ))}
      </Tips>
      <Button type="button" onClick={() => kyc.send({ type: 'kyc.retry' })}>
        {copy.retry}
      </Button>
      <AssistOffer kyc={kyc} />
    </KycLayout>
  );
}

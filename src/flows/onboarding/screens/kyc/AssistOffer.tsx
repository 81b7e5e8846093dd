import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { KycMachine } from '../../../../../machines/kyc/kyc.machine';
import {
  selectAssistNotice,
  selectAssistOffer,
} from '../../../../../machines/kyc/kyc.assist.selectors';
import { Button } from '../../../../components/Button';
import { Muted } from '../../../../components/Page';
import { assist as copy } from '../../../../copy/es.assist';
import { AssistChoices } from './AssistScreen';

/**
 * The way out on an identity step (issue 30): after a refusal repeated, the two choices on the
 * refusal's own screen; else 'No puedo completar este paso', a secondary action.
 */
export function AssistOffer({ kyc }: { kyc: ActorRefFrom<KycMachine> }) {
  const offer = useSelector(kyc, selectAssistOffer);
  if (offer === 'direct')
    return (
      <>
        <Muted>{copy.direct}</Muted>
        <AssistChoices actor={kyc} view={{ canReview: true, canCentre: true }} />
      </>
    );
  if (offer === 'ask')
    return (
      <Button type="button" $variant="secondary" onClick={() => kyc.send({ type: 'assist.open' })}>
        {copy.action}
      </Button>
    );
  return null;
}

/** A person's decision, said on the screen it reopens (the data to complete, the step to repeat). */
export function AssistNotice({ kyc }: { kyc: ActorRefFrom<KycMachine> }) {
  const notice = useSelector(kyc, selectAssistNotice);
  return notice ? (
    <Muted role="status" data-testid="assist-notice">
      {copy.notices[notice]}
    </Muted>
  ) : null;
}

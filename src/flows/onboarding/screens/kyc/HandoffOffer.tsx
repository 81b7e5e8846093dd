import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { KycMachine } from '../../../../../machines/kyc/kyc.machine';
import { selectCanHandoff } from '../../../../../machines/kyc/kyc.selectors';
import { Button } from '../../../../components/Button';
import { Muted } from '../../../../components/Page';
import { kyc as copy } from '../../../../copy/es.kyc';

/** 'Seguir en mi celular' on the capture steps, where the wizard can hand them to the phone. */
export function HandoffOffer({ kyc }: { kyc: ActorRefFrom<KycMachine> }) {
  const canHandoff = useSelector(kyc, selectCanHandoff);
  if (!canHandoff) return null;
  return (
    <>
      <Muted>{copy.handoff.hint}</Muted>
      <Button
        type="button"
        $variant="secondary"
        onClick={() => kyc.send({ type: 'handoff.start' })}
      >
        {copy.handoff.action}
      </Button>
    </>
  );
}

import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { KycMachine } from '../../../../../machines/kyc/kyc.machine';
import { selectHandoffPlace } from '../../../../../machines/kyc/kyc.selectors';
import { Button } from '../../../../components/Button';
import { Muted } from '../../../../components/Page';
import { kyc as copy } from '../../../../copy/es.kyc';

/**
 * 'Seguir en mi celular' on the capture steps, where the wizard can hand them to the phone: the
 * first, primary action when the camera is missing, refused or unusable; else a secondary choice
 * below the camera (issue 29 item 12). Each screen places one `at` 'first' and one `at` 'last'.
 */
export function HandoffOffer({ kyc, at }: { kyc: ActorRefFrom<KycMachine>; at: 'first' | 'last' }) {
  const place = useSelector(kyc, selectHandoffPlace);
  if (place !== at) return null;
  return (
    <>
      {at === 'last' ? <Muted>{copy.handoff.hint}</Muted> : null}
      <Button
        type="button"
        $variant={at === 'first' ? 'primary' : 'secondary'}
        onClick={() => kyc.send({ type: 'handoff.start' })}
      >
        {copy.handoff.action}
      </Button>
      {at === 'first' ? <Muted>{copy.handoff.noCamera}</Muted> : null}
    </>
  );
}

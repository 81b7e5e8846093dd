import { useSelector } from '@xstate/react';
import styled from 'styled-components';
import type { ActorRefFrom } from 'xstate';
import type { OtpMachine } from '../../../../machines/otp/otp.machine';
import { selectOtpView } from '../../../../machines/otp/otp.selectors';
import { BackButton } from '../../../components/BackLink';
import { Muted } from '../../../components/Page';
import { StepForm } from '../../../components/StepForm';
import { formatCelular, recovery, recoveryOtpErrors } from '../../../copy/es.recovery';
import { OtpCodeFields } from '../../otp/OtpCodeFields';
import { RecoveryActor } from '../recovery.context';

const copy = recovery.verification;

const NoSms = styled.section`
  display: grid;
  gap: 4px;
`;
const NoSmsTitle = styled.h2`
  margin: 0;
  font-size: 1rem;
`;

/**
 * Step 1 'Verificá tu código': the shared OTP child (the 6th digit validates), its field focused;
 * what to do when no SMS arrives (the one wait is the countdown); back returns to step 0.
 */
export function VerificationScreen({ otp }: { otp: ActorRefFrom<OtpMachine> }) {
  const view = useSelector(otp, selectOtpView);
  const { send } = RecoveryActor.useActorRef();
  return (
    <StepForm
      back={
        <BackButton
          label={recovery.backToRequest}
          onClick={() => send({ type: 'flow.back' })}
          disabled={view.busy}
        />
      }
      title={copy.title}
      intro={copy.intro(formatCelular(view.celular))}
      onSubmit={() => otp.send({ type: 'code.submit' })}
      busy={view.busy}
      // The code field takes the focus, not the title: digits typed at once and the phone's SMS
      // autofill go there (issue 43 item 9); the field's label names the step.
      titleFocus={false}
    >
      <OtpCodeFields otp={otp} copy={copy} errors={recoveryOtpErrors} focusOnMount />
      <NoSms aria-labelledby="recovery-no-sms">
        <NoSmsTitle id="recovery-no-sms">{copy.noSms.title}</NoSmsTitle>
        <Muted>{copy.noSms.registered}</Muted>
        <Muted>{copy.noSms.retry}</Muted>
      </NoSms>
    </StepForm>
  );
}

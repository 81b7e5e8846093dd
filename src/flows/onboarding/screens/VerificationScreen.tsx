import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { OtpMachine } from '../../../../machines/otp/otp.machine';
import { selectOtpView } from '../../../../machines/otp/otp.selectors';
import { common } from '../../../copy/es';
import { formatCelular, onboarding, otpErrors } from '../../../copy/es.onboarding';
import { OtpCodeFields } from '../../otp/OtpCodeFields';
import { OnboardingActor } from '../onboarding.context';
import { StepForm } from '../../../components/StepForm';

const copy = onboarding.verification;

/**
 * Step 1 'Verificación': the OTP child's state; back ('Volver') goes to step 0 through the wizard,
 * with the code sent still usable (issue 29 item 11).
 */
export function VerificationScreen({ otp }: { otp: ActorRefFrom<OtpMachine> }) {
  const view = useSelector(otp, selectOtpView);
  const wizard = OnboardingActor.useActorRef();
  return (
    <StepForm
      title={copy.title}
      intro={copy.intro(formatCelular(view.celular))}
      onBack={() => wizard.send({ type: 'flow.back' })}
      backLabel={common.back}
      onSubmit={() => otp.send({ type: 'code.submit' })}
      busy={view.busy}
    >
      <OtpCodeFields otp={otp} copy={copy} errors={otpErrors} />
    </StepForm>
  );
}

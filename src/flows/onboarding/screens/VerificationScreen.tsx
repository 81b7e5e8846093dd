import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { OTP_LENGTH } from '../../../../contract/onboarding';
import type { OtpMachine } from '../../../../machines/otp/otp.machine';
import { selectOtpView, type OtpAnnouncement } from '../../../../machines/otp/otp.selectors';
import { Button, TextButton } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { OtpInput } from '../../../components/OtpInput';
import { VisuallyHidden } from '../../../components/VisuallyHidden';
import { errorText, formatCelular, onboarding, otpErrors } from '../../../copy/es.onboarding';
import { OnboardingActor } from '../onboarding.context';
import { Countdown, ResendRow } from './VerificationScreen.styles';
import { StepForm } from './StepForm';

const copy = onboarding.verification;

const announce = (a: OtpAnnouncement): string =>
  a === null ? '' : a.kind === 'wait' ? copy.announceWait(a.seconds) : copy.announceAvailable;

/** Step 1 'Verificación': the OTP child's state; back goes home through the wizard. */
export function VerificationScreen({ otp }: { otp: ActorRefFrom<OtpMachine> }) {
  const view = useSelector(otp, selectOtpView);
  const wizard = OnboardingActor.useActorRef();
  const error = errorText(view.error, otpErrors);
  const resendError = errorText(view.resendError, otpErrors);
  return (
    <StepForm
      title={copy.title}
      intro={copy.intro(formatCelular(view.celular))}
      onBack={() => wizard.send({ type: 'flow.back' })}
      onSubmit={() => otp.send({ type: 'code.submit' })}
      busy={view.busy}
    >
      <OtpInput
        length={OTP_LENGTH}
        label={copy.codeLabel}
        name="otp"
        value={view.code}
        onValueChange={(value) => otp.send({ type: 'code.change', value })}
        readOnly={view.busy}
        required
      />
      {error ? <ErrorBanner message={error} /> : null}
      {view.notice === 'codeResent' ? <ErrorBanner tone="info" message={copy.resent} /> : null}
      <Button type="submit" disabled={!view.canSubmit}>
        {view.validating ? copy.submitting : copy.submit}
      </Button>
      <ResendRow>
        {view.waiting ? (
          <Countdown>{copy.countdown(view.secondsLeft)}</Countdown>
        ) : (
          <TextButton
            type="button"
            onClick={() => otp.send({ type: 'code.resend' })}
            disabled={!view.canResend}
          >
            {view.resending ? copy.resending : copy.resend}
          </TextButton>
        )}
        {resendError ? <ErrorBanner message={resendError} /> : null}
      </ResendRow>
      <VisuallyHidden aria-live="polite" aria-atomic="true">
        {announce(view.announcement)}
      </VisuallyHidden>
    </StepForm>
  );
}

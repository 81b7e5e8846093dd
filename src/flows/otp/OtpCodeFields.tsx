import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import { OTP_LENGTH } from '../../../machines/otp/otp.types';
import type { OtpMachine } from '../../../machines/otp/otp.machine';
import { selectOtpView, type OtpAnnouncement } from '../../../machines/otp/otp.selectors';
import type { OtpErrorCode } from '../../../machines/otp/otp.types';
import { SubmitButton, TextButton } from '../../components/Button';
import { ErrorBanner } from '../../components/ErrorBanner';
import { OtpInput } from '../../components/OtpInput';
import { useFocusAfterFailure } from '../../components/useFocusAfterFailure';
import { VisuallyHidden } from '../../components/VisuallyHidden';
import { errorText } from '../../copy/es';
import { Countdown, ResendRow } from './OtpCodeFields.styles';

/** The texts of a code step (each flow has its own, in src/copy/). */
type OtpCopy = {
  codeLabel: string;
  submit: string;
  submitting: string;
  resend: string;
  resending: string;
  countdown: (seconds: number) => string;
  announceWait: (seconds: number) => string;
  announceAvailable: string;
  resent: string;
  /** beside the disabled submit while the code is not complete */
  codeMissing: string;
};

const announce = (copy: OtpCopy, a: OtpAnnouncement): string =>
  a === null ? '' : a.kind === 'wait' ? copy.announceWait(a.seconds) : copy.announceAvailable;

/**
 * The fields of an SMS code step, shared by onboarding and PIN recovery: the OTP child's code,
 * its errors, the submit button, the resend countdown or link, and a polite live region. Place it
 * inside the step's form (submitting the form sends `code.submit` to the child).
 */
export function OtpCodeFields({
  otp,
  copy,
  errors,
  focusOnMount = false,
}: {
  otp: ActorRefFrom<OtpMachine>;
  copy: OtpCopy;
  errors: Record<OtpErrorCode, string>;
  /** the code field takes the focus when the step appears: typed digits and the SMS autofill go there */
  focusOnMount?: boolean;
}) {
  const view = useSelector(otp, selectOtpView);
  const error = errorText(view.bannerError, errors);
  const resendError = errorText(view.resendError, errors);
  const code = useRef<HTMLInputElement>(null);
  // A wrong code is cleared: the focus goes back to the field for the next try.
  useFocusAfterFailure(view.failures, () => code.current);
  useEffect(() => {
    if (focusOnMount) code.current?.focus();
  }, [focusOnMount]);
  return (
    <>
      <OtpInput
        ref={code}
        length={OTP_LENGTH}
        label={copy.codeLabel}
        name="otp"
        value={view.code}
        onValueChange={(value) => otp.send({ type: 'code.change', value })}
        readOnly={view.busy}
        error={errorText(view.codeError, errors)}
        // the 6th digit validates while the focus stays in the field: say the refusal at once
        errorLive
        required
      />
      {error ? <ErrorBanner message={error} /> : null}
      {view.notice === 'codeResent' ? <ErrorBanner tone="info" message={copy.resent} /> : null}
      <SubmitButton disabled={!view.canSubmit} reason={view.codeMissing ? copy.codeMissing : null}>
        {view.validating ? copy.submitting : copy.submit}
      </SubmitButton>
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
        {announce(copy, view.announcement)}
      </VisuallyHidden>
    </>
  );
}

import type { SnapshotFrom } from 'xstate';
import type { OtpMachine } from './otp.machine';
import { OTP_LENGTH, type OtpError } from './otp.types';

type Snapshot = SnapshotFrom<OtpMachine>;

/** Besides the start of the wait, the one moment the countdown is announced again before 0. */
const OTP_ANNOUNCE_AT_SECONDS = 10;

/**
 * What the polite live region says: the wait when it starts (30 s), again at 10 s, and that a new
 * code may be asked for at 0. Between those moments it keeps its text, so nothing is re-read.
 */
export type OtpAnnouncement =
  { kind: 'wait'; seconds: number } | { kind: 'resendAvailable' } | null;

export function selectOtpAnnouncement(s: Snapshot): OtpAnnouncement {
  if (s.matches({ active: { resend: 'waiting' } })) {
    const { secondsLeft, waitSeconds } = s.context;
    return {
      kind: 'wait',
      seconds:
        secondsLeft > OTP_ANNOUNCE_AT_SECONDS
          ? waitSeconds
          : Math.min(waitSeconds, OTP_ANNOUNCE_AT_SECONDS),
    };
  }
  if (
    s.matches({ active: { resend: 'available' } }) ||
    s.matches({ active: { resend: 'resendFailed' } })
  ) {
    return { kind: 'resendAvailable' };
  }
  return null;
}

export const selectOtpView = (s: Snapshot) => {
  const error = (
    s.matches({ active: { entry: 'failed' } }) ? s.context.error : null
  ) as OtpError | null;
  const validating = s.matches({ active: { entry: 'validating' } });
  return {
    celular: s.context.recipient.celular,
    code: s.context.code,
    validating: s.matches({ active: { entry: 'validating' } }),
    resending: s.matches({ active: { resend: 'resending' } }),
    busy: s.hasTag('busy'),
    canSubmit: s.can({ type: 'code.submit' }),
    canResend: s.can({ type: 'code.resend' }),
    waiting: s.matches({ active: { resend: 'waiting' } }),
    secondsLeft: s.context.secondsLeft,
    error,
    /** a wrong or expired code is the field's own message; other failures are a banner */
    codeError: error?.code === 'wrongCode' ? error : null,
    bannerError: error?.code === 'wrongCode' ? null : error,
    /** why 'Validar código' is disabled: the code is not 6 digits yet */
    codeMissing:
      !validating && !s.can({ type: 'code.submit' }) && s.context.code.length < OTP_LENGTH,
    failures: s.context.failures,
    resendError: (s.matches({ active: { resend: 'resendFailed' } })
      ? s.context.resendError
      : null) as OtpError | null,
    notice: s.context.notice,
    announcement: selectOtpAnnouncement(s),
    verified: s.matches('verified'),
  };
};

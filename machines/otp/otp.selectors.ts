import type { SnapshotFrom } from 'xstate';
import type { OtpMachine } from './otp.machine';
import type { OtpError } from './otp.types';

type Snapshot = SnapshotFrom<OtpMachine>;

/** Seconds at which the resend countdown is announced to screen readers (not every second). */
export const OTP_ANNOUNCED_SECONDS = [30, 10] as const;

/**
 * What the polite live region says: the wait when it starts (30 s), again at 10 s, and that a new
 * code may be asked for at 0. Between those moments it keeps its text, so nothing is re-read.
 */
export type OtpAnnouncement =
  | { kind: 'wait'; seconds: (typeof OTP_ANNOUNCED_SECONDS)[number] }
  | { kind: 'resendAvailable' }
  | null;

export function selectOtpAnnouncement(s: Snapshot): OtpAnnouncement {
  if (s.matches({ active: { resend: 'waiting' } })) {
    return { kind: 'wait', seconds: s.context.secondsLeft > 10 ? 30 : 10 };
  }
  if (s.matches({ active: { resend: 'available' } }) || s.matches({ active: { resend: 'resendFailed' } })) {
    return { kind: 'resendAvailable' };
  }
  return null;
}

export const selectOtpView = (s: Snapshot) => ({
  code: s.context.code,
  validating: s.matches({ active: { entry: 'validating' } }),
  resending: s.matches({ active: { resend: 'resending' } }),
  busy: s.hasTag('busy'),
  canSubmit: s.can({ type: 'code.submit' }),
  canResend: s.can({ type: 'code.resend' }),
  waiting: s.matches({ active: { resend: 'waiting' } }),
  secondsLeft: s.context.secondsLeft,
  error: (s.matches({ active: { entry: 'failed' } }) ? s.context.error : null) as OtpError | null,
  resendError: (s.matches({ active: { resend: 'resendFailed' } }) ? s.context.resendError : null) as OtpError | null,
  notice: s.context.notice,
  announcement: selectOtpAnnouncement(s),
  verified: s.matches('verified'),
});
export type OtpView = ReturnType<typeof selectOtpView>;

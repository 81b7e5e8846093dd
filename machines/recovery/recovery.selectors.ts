import type { SnapshotFrom } from 'xstate';
import type { RecoveryMachine } from './recovery.machine';
import type { RecoveryStep } from './recovery.types';

type Snapshot = SnapshotFrom<RecoveryMachine>;

export type RecoveryScreen = 'request' | 'verification' | 'newPin' | 'unexpected' | 'done';

const screens: readonly RecoveryScreen[] = [
  'request',
  'verification',
  'newPin',
  'unexpected',
  'done',
];

export const selectRecoveryScreen = (s: Snapshot): RecoveryScreen =>
  screens.find((screen) => s.matches(screen)) ?? 'request';

const steps: Record<RecoveryScreen, RecoveryStep | null> = {
  request: 0,
  verification: 1,
  newPin: 2,
  done: 3,
  unexpected: null,
};

/** The spec's step number, or null on the 'something went wrong' page. */
export const selectRecoveryStep = (s: Snapshot): RecoveryStep | null =>
  steps[selectRecoveryScreen(s)];

/** The OTP child while step 1 runs. */
export const selectOtpActor = (s: Snapshot) => s.children.otp;

export const selectRequestView = (s: Snapshot) => {
  const sending = s.matches({ request: 'sending' });
  return {
    documento: s.context.documento,
    celular: s.context.celular,
    sending,
    // Both fields are required; the machine says why a filled form is refused.
    canSubmit: !sending && s.context.documento !== '' && s.context.celular !== '',
    error:
      s.matches({ request: 'invalid' }) || s.matches({ request: 'failed' })
        ? s.context.error
        : null,
  };
};
export type RequestView = ReturnType<typeof selectRequestView>;

export const selectNewPinView = (s: Snapshot) => {
  const saving = s.matches({ newPin: 'saving' });
  return {
    pin: s.context.pin,
    saving,
    canSubmit: !saving && s.context.pin !== '',
    error:
      s.matches({ newPin: 'invalid' }) || s.matches({ newPin: 'failed' }) ? s.context.error : null,
  };
};
export type NewPinView = ReturnType<typeof selectNewPinView>;

export const selectUnexpectedError = (s: Snapshot) =>
  s.matches('unexpected') ? s.context.error : null;

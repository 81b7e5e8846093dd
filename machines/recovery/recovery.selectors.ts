import type { SnapshotFrom } from 'xstate';
import type { RecoveryMachine } from './recovery.machine';
import type { RecoveryError, RecoveryMissing, RecoveryStep } from './recovery.types';

type Snapshot = SnapshotFrom<RecoveryMachine>;

type RecoveryScreen = 'request' | 'verification' | 'newPin' | 'unexpected' | 'done';

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
  const { documento, celular, fieldErrors } = s.context;
  const missing: RecoveryMissing | null =
    !documento && !celular
      ? 'documentoAndCelular'
      : !documento
        ? 'documento'
        : !celular
          ? 'celular'
          : null;
  return {
    documento,
    celular,
    sending,
    // Both fields are required; the machine says why a filled form is refused.
    canSubmit: !sending && missing === null,
    missing: sending ? null : missing,
    /** each field's own message, under it */
    documentoError: fieldErrors.documento,
    celularError: fieldErrors.celular,
    /** the banner: only the send's refusal */
    error: s.matches({ request: 'failed' }) ? s.context.error : null,
    failures: s.context.failures,
    /** the first field to fix after a refused submit (the document when the send failed) */
    focus:
      fieldErrors.documento || !fieldErrors.celular ? ('documento' as const) : ('celular' as const),
  };
};

const pinCodes: readonly RecoveryError['code'][] = ['pinInvalid', 'pinFromOwnData'];

export const selectNewPinView = (s: Snapshot) => {
  const saving = s.matches({ newPin: 'saving' });
  const error =
    s.matches({ newPin: 'invalid' }) || s.matches({ newPin: 'failed' }) ? s.context.error : null;
  const aboutPin = error !== null && pinCodes.includes(error.code);
  return {
    pin: s.context.pin,
    saving,
    canSubmit: !saving && s.context.pin !== '',
    missing: !saving && s.context.pin === '' ? ('pin' as const) : null,
    /** the PIN's own message, under the field */
    pinError: aboutPin ? error : null,
    /** the banner: a refusal that is not about the PIN typed (no grant, no answer, 429) */
    error: aboutPin ? null : error,
    failures: s.context.failures,
  };
};

export const selectUnexpectedError = (s: Snapshot) =>
  s.matches('unexpected') ? s.context.error : null;

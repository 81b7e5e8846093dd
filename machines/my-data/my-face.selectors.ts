import type { SnapshotFrom } from 'xstate';
import type { MyFaceMachine } from './my-face.machine';

type Snapshot = SnapshotFrom<MyFaceMachine>;

/** What 'Mi rostro' shows: the load, the face's state, a form, or the withdrawal done. */
export type MyFaceScreen =
  'loading' | 'failed' | 'none' | 'unlocked' | 'locked' | 'unlocking' | 'withdrawing' | 'withdrawn';

/** The call under way, for the button's label. */
export type MyFaceBusy = 'locking' | 'sendingCode' | 'unlocking' | 'withdrawing' | null;

function screenOf(s: Snapshot): MyFaceScreen {
  if (s.matches('failed')) return 'failed';
  if (s.matches({ shown: 'none' })) return 'none';
  if (s.matches({ shown: 'locked' }) || s.matches('sendingCode')) return 'locked';
  if (s.matches('shown') || s.matches('locking')) return 'unlocked';
  if (s.matches('unlocking')) return 'unlocking';
  if (s.matches('withdrawing')) return 'withdrawing';
  if (s.matches('withdrawn')) return 'withdrawn';
  return 'loading';
}

function busyOf(s: Snapshot): MyFaceBusy {
  if (s.matches('locking')) return 'locking';
  if (s.matches('sendingCode') || s.matches({ unlocking: 'resending' })) return 'sendingCode';
  if (s.matches({ unlocking: 'submitting' })) return 'unlocking';
  if (s.matches({ withdrawing: 'submitting' })) return 'withdrawing';
  return null;
}

export const selectMyFaceView = (s: Snapshot) => {
  const { face, pin, otp, notice, error, resendAfterSeconds, failures } = s.context;
  return {
    screen: screenOf(s),
    busy: busyOf(s),
    face,
    pin,
    otp,
    notice,
    resendAfterSeconds,
    error,
    sessionEnded: error?.status === 401,
    failures,
    /** the field a failed submit sends the focus to: the code when the code was wrong */
    focus:
      s.matches('unlocking') && error?.reason === 'wrong_otp' ? ('otp' as const) : ('pin' as const),
    canSubmit: s.matches('unlocking')
      ? /^\d{6}$/.test(pin) && /^\d{6}$/.test(otp)
      : /^\d{6}$/.test(pin),
  };
};
export type MyFaceView = ReturnType<typeof selectMyFaceView>;

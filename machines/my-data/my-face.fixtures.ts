import type { MyFaceState } from '../../contract/my-face';
import { MY_DATA_LOADED } from './my-data.fixtures';
import { myDataMachine } from './my-data.machine';
import { myFaceMachine } from './my-face.machine';
import type { MyFaceContext } from './my-face.types';

/** 'Mi rostro' (issue 45 item 4): a snapshot of every state, for stories and tests. */

const ENROLLED: MyFaceState = {
  enrolled: true,
  since: '2026-10-02T13:20:00.000Z',
  locked: false,
  lockedAt: null,
  celular: '•••••••456',
};
const LOCKED: MyFaceState = { ...ENROLLED, locked: true, lockedAt: '2026-11-28T14:05:00.000Z' };
const NONE: MyFaceState = { ...ENROLLED, enrolled: false, since: null };

const base: MyFaceContext = {
  face: ENROLLED,
  pin: '',
  otp: '',
  notice: null,
  resendAfterSeconds: null,
  error: null,
  failures: 0,
};
const at = (
  value: Parameters<typeof myFaceMachine.resolveState>[0]['value'],
  context: Partial<MyFaceContext> = {},
) => myFaceMachine.resolveState({ value, context: { ...base, ...context } });

const typed = { pin: '482915', otp: '123456' };
const wrongPin = {
  code: 'server' as const,
  status: 400,
  serverMessage: 'El PIN no es correcto. Verificá e intentá de nuevo.',
};

export const myFaceFixtures = {
  loading: at('loading', { face: null }),
  failed: at('failed', { face: null, error: { code: 'network' } }),
  sessionEnded: at('failed', {
    face: null,
    error: { code: 'server', status: 401, serverMessage: 'Tu sesión terminó.' },
  }),
  unlocked: at({ shown: 'unlocked' }),
  justUnlocked: at(
    { shown: 'unlocked' },
    { notice: 'Desbloqueaste el reconocimiento de tu rostro.' },
  ),
  locking: at('locking'),
  locked: at(
    { shown: 'locked' },
    {
      face: LOCKED,
      notice: 'Bloqueaste el reconocimiento de tu rostro. Nadie puede ingresar con tu cara.',
    },
  ),
  sendingCode: at('sendingCode', { face: LOCKED }),
  smsFailed: at(
    { shown: 'locked' },
    {
      face: LOCKED,
      error: {
        code: 'server',
        status: 503,
        serverMessage: 'No pudimos enviar el SMS. Intentá de nuevo en unos minutos.',
      },
    },
  ),
  none: at({ shown: 'none' }, { face: NONE }),
  entering: at(
    { unlocking: 'entering' },
    {
      face: LOCKED,
      notice: 'Te enviamos un código por SMS. Vence en 5 minutos.',
      resendAfterSeconds: 30,
    },
  ),
  enteringWrongPin: at({ unlocking: 'entering' }, { face: LOCKED, ...typed, error: wrongPin }),
  unlockingSubmitting: at({ unlocking: 'submitting' }, { face: LOCKED, ...typed }),
  resending: at({ unlocking: 'resending' }, { face: LOCKED, ...typed }),
  confirming: at({ withdrawing: 'confirming' }),
  confirmingWrongPin: at({ withdrawing: 'confirming' }, { pin: '111111', error: wrongPin }),
  withdrawSubmitting: at({ withdrawing: 'submitting' }, { pin: typed.pin }),
  withdrawn: at('withdrawn', {
    face: NONE,
    notice:
      'Borramos tu rostro. Ya no vas a poder ingresar con tu cara; seguís ingresando con tu cédula y tu PIN.',
  }),
};

/** The myData machine on its 'Mi rostro' section. */
export const myDataAtFace = {
  face: myDataMachine.resolveState({
    value: { showing: 'face' },
    context: { loaded: MY_DATA_LOADED, error: null },
  }),
};

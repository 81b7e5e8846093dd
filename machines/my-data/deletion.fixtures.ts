import type { SnapshotFrom } from 'xstate';
import { deletionMachine } from './deletion.machine';
import type { DeletionContext } from './deletion.types';
import { MY_DATA_LOADED } from './my-data.fixtures';
import { myDataMachine } from './my-data.machine';

/**
 * 'Eliminar mi cuenta' (issue 45 item 6): one snapshot of the `deletion` child per state
 * (`deletionFixtures`), and Mis datos at each of them (`deletionInMyData`, for the stories).
 */
type Value = Parameters<typeof deletionMachine.resolveState>[0]['value'];
const BASE: DeletionContext = {
  pin: '',
  code: '',
  pending: null,
  waitHours: 24,
  error: null,
  failures: 0,
};
const PENDING = { dueAt: '2026-11-30T14:05:00.000Z' };
const at = (value: Value, context: Partial<DeletionContext> = {}) =>
  deletionMachine.resolveState({ value, context: { ...BASE, ...context } });

export const deletionFixtures = {
  loading: at('loading', { waitHours: null }),
  intro: at('intro'),
  pin: at('pin'),
  pinWrong: at('pin', {
    pin: '123456',
    error: {
      code: 'server',
      status: 403,
      serverMessage: 'El PIN no es correcto. Revisalo e intentá de nuevo.',
    },
  }),
  sendingCode: at('sendingCode', { pin: '123456' }),
  code: at('code', { pin: '123456' }),
  codeWrong: at('code', {
    pin: '123456',
    code: '111111',
    error: {
      code: 'server',
      status: 400,
      serverMessage: 'Código incorrecto o vencido. Revisalo o pedí otro.',
    },
  }),
  resending: at('resending', { pin: '123456' }),
  confirming: at('confirming', { pin: '123456', code: '482915' }),
  pending: at('pending', { pending: PENDING }),
  cancelling: at('cancelling', { pending: PENDING }),
  cancelFailed: at('pending', { pending: PENDING, error: { code: 'network' } }),
  cancelled: at('cancelled'),
  failed: at('failed', { error: { code: 'network' } }),
  sessionEnded: at('sessionEnded'),
};

type DeletionSnapshot = SnapshotFrom<typeof deletionMachine>;
type MyDataSnapshot = SnapshotFrom<typeof myDataMachine>;

/** Mis datos on a section with the child restored at a fixture (a persisted snapshot). */
const inMyData = (
  child: DeletionSnapshot,
  section: 'deletion' | 'data' = 'deletion',
): MyDataSnapshot =>
  ({
    ...myDataMachine.resolveState({
      value: { showing: section },
      context: { loaded: MY_DATA_LOADED, error: null },
    }),
    children: { deletion: { snapshot: child, src: 'deletion', syncSnapshot: false } },
  }) as unknown as MyDataSnapshot;

export const deletionInMyData = Object.fromEntries(
  Object.entries(deletionFixtures).map(([name, child]) => [name, inMyData(child)]),
) as Record<keyof typeof deletionFixtures, MyDataSnapshot>;

/** 'Lo que guardamos' while a deletion waits: the banner with its time and the way to cancel. */
export const dataWithPendingDeletion = inMyData(deletionFixtures.pending, 'data');

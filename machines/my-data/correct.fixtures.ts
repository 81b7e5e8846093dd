import { withChild } from '../operators/case.fixtures';
import type { CorrectContext, CorrectionItem, IdentityValue } from './correct.machine';
import { correctMachine } from './correct.machine';
import { MY_DATA_LOADED } from './my-data.fixtures';
import { myDataMachine } from './my-data.machine';

/** 'Corregir mis datos' (issue 45 item 5) for stories and tests: made-up requests. */
const identity = MY_DATA_LOADED.data.identity as IdentityValue[];

export const CORRECTION_REQUESTS: CorrectionItem[] = [
  {
    id: 'c1',
    field: 'MaritalStatus',
    asked: 'CASADA',
    state: 'pending',
    openedAt: '2026-11-28T14:00:00.000Z',
    decidedAt: null,
    rejectReason: null,
    note: null,
  },
  {
    id: 'c2',
    field: 'DateOfBirth',
    asked: '1990-05-14',
    state: 'approved',
    openedAt: '2026-11-10T10:00:00.000Z',
    decidedAt: '2026-11-11T09:00:00.000Z',
    rejectReason: null,
    note: null,
  },
  {
    id: 'c3',
    field: 'FullName',
    asked: 'GONZÁLEZ BENÍTEZ MARÍA JOSEFA',
    state: 'rejected',
    openedAt: '2026-11-02T10:00:00.000Z',
    decidedAt: '2026-11-03T09:00:00.000Z',
    rejectReason: 'photos_unusable',
    note: 'No guardamos la imagen de tu cédula.',
  },
];

const base: CorrectContext = {
  identity,
  requests: CORRECTION_REQUESTS,
  field: null,
  value: '',
  reason: '',
  error: null,
};
const at = (
  value: Parameters<typeof correctMachine.resolveState>[0]['value'],
  context: Partial<CorrectContext> = {},
) => correctMachine.resolveState({ value, context: { ...base, ...context } });

const writing = {
  field: 'FullName' as const,
  value: 'GONZÁLEZ BENÍTEZ MARÍA JOSEFA',
  reason: 'Mi nombre es Josefa',
};

/** The child alone, one snapshot per leaf. */
export const correctFixtures = {
  loading: at('loading', { requests: [] }),
  failed: at('failed', { requests: [], error: { code: 'network' } }),
  sessionEnded: at('failed', { requests: [], error: { code: 'server', status: 401 } }),
  list: at('list'),
  empty: at('list', { requests: [] }),
  choosing: at('choosing'),
  writing: at('writing', writing),
  writingChoice: at('writing', { field: 'Gender', value: 'F', reason: '' }),
  sending: at('sending', writing),
  refused: at('writing', {
    ...writing,
    error: {
      code: 'server',
      status: 409,
      serverMessage:
        'Ya pediste corregir este dato y una persona lo está revisando. Esperá su respuesta en Mis datos.',
    },
  }),
  sent: at('sent', {
    requests: [
      { ...CORRECTION_REQUESTS[0]!, field: 'FullName', asked: writing.value },
      ...CORRECTION_REQUESTS.slice(1),
    ],
  }),
};

const showing = myDataMachine.resolveState({
  value: { showing: 'corrections' },
  context: { loaded: MY_DATA_LOADED, error: null },
});

/** Mis datos at 'Corregir mis datos' with the child at each of its fixtures (stories). */
export const myDataCorrectFixtures = Object.fromEntries(
  Object.entries(correctFixtures).map(([name, child]) => [
    name,
    withChild(showing, 'correct', child),
  ]),
) as Record<keyof typeof correctFixtures, typeof showing>;

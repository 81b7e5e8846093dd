import type { Access, MyDataResponse } from '../../contract/my-data';
import { myDataMachine } from './my-data.machine';
import type { MyDataLoaded } from './my-data.types';

const DATA: MyDataResponse = {
  success: true,
  identity: [
    { field: 'FullName', value: 'MARÍA JOSÉ GONZÁLEZ BENÍTEZ', source: 'engine' },
    { field: 'DocumentNumber', value: '1234567', source: 'engine' },
    { field: 'DateOfBirth', value: '1990-05-14', source: 'person' },
    { field: 'Gender', value: 'F', source: 'engine' },
    { field: 'Nationality', value: 'PARAGUAYA', source: 'engine' },
    { field: 'MaritalStatus', value: null, source: 'engine' },
  ],
  celular: '0981123456',
  email: 'maria@example.com',
  registeredAt: '2026-10-02T13:20:00.000Z',
  terms: {
    acceptedAt: '2026-10-02T13:05:00.000Z',
    version: '2026-11-24',
    privacyVersion: '2026-11-24',
  },
  face: { enrolled: true, since: '2026-10-02T13:20:00.000Z' },
  evidence: [{ parts: ['selfie', 'front', 'back'], until: '2026-11-20T13:20:00.000Z' }],
};

const ACCESSES: Access[] = [
  {
    kind: 'my_data',
    at: '2026-11-28T14:00:00.000Z',
    result: 'ok',
    role: null,
    centre: null,
    what: null,
    device: null,
  },
  {
    kind: 'login',
    at: '2026-11-28T13:59:00.000Z',
    result: 'ok',
    role: null,
    centre: null,
    what: null,
    device: null,
  },
  {
    kind: 'login',
    at: '2026-11-28T13:58:00.000Z',
    result: 'failed',
    role: null,
    centre: null,
    what: null,
    device: null,
  },
  {
    kind: 'pin_recovery',
    at: '2026-11-21T18:30:00.000Z',
    result: 'failed',
    role: null,
    centre: null,
    what: null,
    device: null,
  },
  {
    kind: 'kiosk',
    at: '2026-11-20T09:10:00.000Z',
    result: 'ok',
    role: null,
    centre: null,
    what: null,
    device: '3',
  },
  {
    kind: 'case_image',
    at: '2026-10-03T10:02:00.000Z',
    result: 'ok',
    role: 'revisor',
    centre: null,
    what: 'selfie',
    device: null,
  },
  {
    kind: 'case_view',
    at: '2026-10-03T10:00:00.000Z',
    result: 'ok',
    role: 'revisor',
    centre: null,
    what: null,
    device: null,
  },
];

export const MY_DATA_LOADED: MyDataLoaded = { data: DATA, accesses: ACCESSES };

export const myDataFixtures = {
  loading: myDataMachine.resolveState({ value: 'loading', context: { loaded: null, error: null } }),
  data: myDataMachine.resolveState({
    value: { showing: 'data' },
    context: { loaded: MY_DATA_LOADED, error: null },
  }),
  /** a patient registered before the versions were recorded (issue 45): the time only */
  dataTermsVersionUnknown: myDataMachine.resolveState({
    value: { showing: 'data' },
    context: {
      loaded: {
        data: { ...DATA, terms: { ...DATA.terms, version: null, privacyVersion: null } },
        accesses: ACCESSES,
      },
      error: null,
    },
  }),
  accesses: myDataMachine.resolveState({
    value: { showing: 'accesses' },
    context: { loaded: MY_DATA_LOADED, error: null },
  }),
  accessesEmpty: myDataMachine.resolveState({
    value: { showing: 'accesses' },
    context: { loaded: { data: DATA, accesses: [] }, error: null },
  }),
  failed: myDataMachine.resolveState({
    value: 'failed',
    context: { loaded: null, error: { code: 'network' } },
  }),
  sessionEnded: myDataMachine.resolveState({
    value: 'failed',
    context: { loaded: null, error: { code: 'server', status: 401 } },
  }),
};

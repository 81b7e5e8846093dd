import { assign, not, setup } from 'xstate';
import { BLOOD_TYPES, type BloodType } from '../../contract/onboarding';
import { loadCities, loadDepartments } from './kyc.actors';
import type {
  SupplementaryContext,
  SupplementaryEvent,
  SupplementaryForm,
  SupplementaryInput,
  SupplementaryOutput,
} from './supplementary.types';
import type { InsightStateMeta } from '../insight/meta';

const DIRECCION_MAX_LENGTH = 200;

export const emptySupplementaryForm: SupplementaryForm = {
  tipoSangre: 'No sé',
  direccion: '',
  departamento: '',
  ciudad_id: '',
};

/** The form as it opens, before the departments load. */
export const initialSupplementaryContext = (input: SupplementaryInput): SupplementaryContext => ({
  ...input,
  departments: [],
  cities: [],
  fieldErrors: { departamento: null, ciudad_id: null },
  failures: 0,
  error: null,
});

/**
 * 'Datos complementarios' (the identity step's last sub-step, a child of the KYC machine): the
 * departments load, the cities follow the chosen department, blood type and address are optional;
 * 'Finalizar' with department and city ends with the answers. A department already chosen (the
 * input's form) loads its cities again.
 */
export const supplementaryMachine = setup({
  types: {
    meta: {} as InsightStateMeta,
    context: {} as SupplementaryContext,
    events: {} as SupplementaryEvent,
    input: {} as SupplementaryInput,
    output: {} as SupplementaryOutput,
    tags: {} as 'busy' | 'error',
    children: {} as { loadDepartments: 'loadDepartments'; loadCities: 'loadCities' },
  },
  actors: { loadDepartments, loadCities },
  guards: {
    hasDepartment: ({ context }) => context.form.departamento !== '',
    isFormComplete: ({ context }) =>
      context.form.departamento !== '' && context.form.ciudad_id !== '',
  },
  actions: {
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'kycSupplementary',
  meta: { insight: { step: 'supplementary' } },
  context: ({ input }) => initialSupplementaryContext(input),
  initial: 'loadingDepartments',
  states: {
    loadingDepartments: {
      tags: ['busy'],
      invoke: {
        id: 'loadDepartments',
        src: 'loadDepartments',
        onDone: [
          {
            guard: 'hasDepartment',
            target: 'form.loadingCities',
            actions: assign({ departments: ({ event }) => event.output }),
          },
          {
            target: 'form',
            actions: assign({ departments: ({ event }) => event.output }),
          },
        ],
        onError: {
          target: 'departmentsFailed',
          actions: assign({ error: { code: 'departmentsFailed' } }),
        },
      },
    },
    departmentsFailed: {
      tags: ['error'],
      on: { 'places.retry': { target: 'loadingDepartments', actions: 'clearError' } },
    },
    form: {
      initial: 'noDepartment',
      on: {
        'blood.change': {
          actions: assign({
            form: ({ context, event }) => ({
              ...context.form,
              tipoSangre: (BLOOD_TYPES as readonly string[]).includes(event.value)
                ? (event.value as BloodType)
                : context.form.tipoSangre,
            }),
          }),
        },
        'address.change': {
          actions: assign({
            form: ({ context, event }) => ({
              ...context.form,
              direccion: event.value.slice(0, DIRECCION_MAX_LENGTH),
            }),
          }),
        },
        'department.change': [
          {
            guard: ({ event }) => event.value === '',
            target: '.noDepartment',
            actions: assign({
              form: ({ context }) => ({ ...context.form, departamento: '', ciudad_id: '' }),
              cities: [],
            }),
          },
          {
            // A new department: its cities load, the city chosen before is reset.
            target: '.loadingCities',
            actions: assign({
              form: ({ context, event }) => ({
                ...context.form,
                departamento: event.value,
                ciudad_id: '',
              }),
              cities: [],
              fieldErrors: ({ context }) => ({ ...context.fieldErrors, departamento: null }),
            }),
          },
        ],
        'city.change': {
          actions: assign({
            form: ({ context, event }) => ({
              ...context.form,
              ciudad_id: context.cities.some((c) => c.id === event.value) ? event.value : '',
            }),
            fieldErrors: ({ context }) => ({ ...context.fieldErrors, ciudad_id: null }),
          }),
        },
        'supplementary.submit': [
          {
            guard: not('isFormComplete'),
            actions: assign({
              fieldErrors: ({ context }) => ({
                departamento: context.form.departamento ? null : 'departmentRequired',
                ciudad_id: context.form.ciudad_id ? null : 'cityRequired',
              }),
              failures: ({ context }) => context.failures + 1,
            }),
          },
          {
            guard: ({ context }) => !context.hasDocumentNumber,
            actions: assign({ error: { code: 'documentMissing' } }),
          },
          { target: '#kycSupplementary.done' },
        ],
      },
      states: {
        noDepartment: {},
        loadingCities: {
          tags: ['busy'],
          invoke: {
            id: 'loadCities',
            src: 'loadCities',
            input: ({ context }) => ({ departmentId: context.form.departamento }),
            onDone: {
              target: 'ready',
              actions: assign({
                cities: ({ event }) => event.output,
                // A city absent from the loaded list is reset.
                form: ({ context, event }) =>
                  event.output.some((c) => c.id === context.form.ciudad_id)
                    ? context.form
                    : { ...context.form, ciudad_id: '' },
              }),
            },
            onError: {
              target: 'citiesFailed',
              actions: assign({ error: { code: 'citiesFailed' } }),
            },
          },
        },
        ready: {},
        citiesFailed: {
          tags: ['error'],
          on: { 'places.retry': { target: 'loadingCities', actions: 'clearError' } },
        },
      },
    },
    done: { type: 'final' },
  },
  output: ({ context }) => ({ ...context.form }),
});

export type SupplementaryMachine = typeof supplementaryMachine;

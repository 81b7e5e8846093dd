import {
  emptySupplementaryForm,
  initialSupplementaryContext,
  supplementaryMachine,
} from './supplementary.machine';
import type { SupplementaryContext } from './supplementary.types';

const departments = [
  { id: '0', nombre: 'Asunción (Capital)' },
  { id: '11', nombre: 'Central' },
];
const cities = [
  { id: '11-1', nombre: 'Areguá' },
  { id: '11-7', nombre: 'Luque' },
  { id: '11-17', nombre: 'San Lorenzo' },
];

const base = initialSupplementaryContext({ form: emptySupplementaryForm, hasDocumentNumber: true });
const withPlaces: SupplementaryContext = { ...base, departments };
const withDepartment: SupplementaryContext = {
  ...withPlaces,
  form: { ...withPlaces.form, departamento: '11' },
};
const ready: SupplementaryContext = {
  ...withDepartment,
  cities,
  form: {
    tipoSangre: 'O+',
    direccion: 'Av. Mcal. López 1234',
    departamento: '11',
    ciudad_id: '11-7',
  },
};

type Value = Parameters<typeof supplementaryMachine.resolveState>[0]['value'];
const at = (value: Value, context: SupplementaryContext) =>
  supplementaryMachine.resolveState({ value, context });

/** One named snapshot per leaf state of 'Datos complementarios' (and error variant). */
export const supplementaryFixtures = {
  loading: at('loadingDepartments', base),
  departmentsFailed: at('departmentsFailed', { ...base, error: { code: 'departmentsFailed' } }),
  form: at({ form: 'noDepartment' }, withPlaces),
  invalid: at(
    { form: 'noDepartment' },
    {
      ...withPlaces,
      fieldErrors: { departamento: 'departmentRequired', ciudad_id: 'cityRequired' },
    },
  ),
  loadingCities: at({ form: 'loadingCities' }, withDepartment),
  ready: at({ form: 'ready' }, ready),
  /** A verified document without a number: 'Finalizar' cannot end the step. */
  documentMissing: at(
    { form: 'ready' },
    { ...ready, hasDocumentNumber: false, error: { code: 'documentMissing' } },
  ),
  citiesFailed: at(
    { form: 'citiesFailed' },
    { ...withDepartment, error: { code: 'citiesFailed' } },
  ),
  done: at('done', ready),
};

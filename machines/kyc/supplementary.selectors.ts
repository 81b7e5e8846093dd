import type { SnapshotFrom } from 'xstate';
import type { SupplementaryMachine } from './supplementary.machine';

type Snapshot = SnapshotFrom<SupplementaryMachine>;

/** 'Datos complementarios': the form, its lists, its loading and failures. */
export function selectSupplementaryView(s: Snapshot) {
  const loadingDepartments = s.matches('loadingDepartments');
  const departmentsFailed = s.matches('departmentsFailed');
  const loadingCities = s.matches({ form: 'loadingCities' });
  const citiesFailed = s.matches({ form: 'citiesFailed' });
  return {
    loadingDepartments,
    departmentsFailed,
    loadingCities,
    citiesFailed,
    form: s.context.form,
    departments: s.context.departments,
    cities: s.context.cities,
    fieldErrors: s.context.fieldErrors,
    failures: s.context.failures,
    /** the first field to fix after a refused submit */
    focus: s.context.fieldErrors.departamento ? ('departamento' as const) : ('ciudad_id' as const),
    citiesDisabled: s.context.form.departamento === '' || loadingCities || citiesFailed,
    error: s.context.error,
    canRetryPlaces: s.can({ type: 'places.retry' }),
    canSubmit: s.can({ type: 'supplementary.submit' }),
  };
}

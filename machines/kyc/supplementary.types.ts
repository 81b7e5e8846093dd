import type { BloodType, Place } from '../../contract/onboarding';

/** The supplementary form's blood types, 'No sé' first (its view lists them). */
export { BLOOD_TYPES } from '../../contract/onboarding';

/** What the patient answers in 'Datos complementarios' (the wizard's register call sends it). */
export type SupplementaryForm = {
  tipoSangre: BloodType;
  direccion: string;
  departamento: string;
  ciudad_id: string;
};

export type SupplementaryFieldErrors = {
  departamento: 'departmentRequired' | null;
  ciudad_id: 'cityRequired' | null;
};

/** Why the form stopped; each code has its Spanish text in src/copy/es.kyc.ts. */
export type SupplementaryErrorCode =
  | 'departmentsFailed'
  | 'citiesFailed'
  /** the verified document has no number: the form cannot be sent */
  | 'documentMissing';

/**
 * The form as the identity step opens it: the patient's answers so far (empty the first time) and
 * whether the verified document has a number (without one the form cannot be sent).
 */
export type SupplementaryInput = { form: SupplementaryForm; hasDocumentNumber: boolean };

export type SupplementaryContext = SupplementaryInput & {
  departments: Place[];
  cities: Place[];
  fieldErrors: SupplementaryFieldErrors;
  /** refused submits: each sends the focus to the first field to fix */
  failures: number;
  error: { code: SupplementaryErrorCode } | null;
};

export type SupplementaryEvent =
  | { type: 'blood.change'; value: string }
  | { type: 'address.change'; value: string }
  | { type: 'department.change'; value: string }
  | { type: 'city.change'; value: string }
  | { type: 'places.retry' }
  | { type: 'supplementary.submit' };

/** The answers, once department and city are chosen. */
export type SupplementaryOutput = SupplementaryForm;

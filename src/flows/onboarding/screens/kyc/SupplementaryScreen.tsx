import { useSelector } from '@xstate/react';
import { useRef, type ReactNode } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { SupplementaryMachine } from '../../../../../machines/kyc/supplementary.machine';
import { selectSupplementaryView } from '../../../../../machines/kyc/supplementary.selectors';
import { BLOOD_TYPES } from '../../../../../machines/kyc/supplementary.types';
import { Button, SubmitButton } from '../../../../components/Button';
import { ErrorBanner } from '../../../../components/ErrorBanner';
import { Muted } from '../../../../components/Page';
import { SelectField } from '../../../../components/SelectField';
import { TextField } from '../../../../components/TextField';
import { useFocusAfterFailure } from '../../../../components/useFocusAfterFailure';
import {
  errorText,
  kyc,
  supplementaryErrors,
  supplementaryFieldErrors,
} from '../../../../copy/es.kyc';
import { Intro } from '../shared.styles';
import { KycLayout } from './KycLayout';

const copy = kyc.supplementary;
const bloodOptions = BLOOD_TYPES.map((b) => ({ value: b, label: b }));

/**
 * 'Datos complementarios': blood type, address, department and city; 'Finalizar' registers.
 * `notice`: a person's decision that led here, said below the title in the step's column (above
 * the title, the title's panel drew over its last line: issue 43 item 10).
 */
export function SupplementaryScreen({
  supplementary,
  notice = null,
}: {
  supplementary: ActorRefFrom<SupplementaryMachine>;
  notice?: ReactNode;
}) {
  const view = useSelector(supplementary, selectSupplementaryView);
  const error = errorText(view.error, supplementaryErrors);
  const fieldError = (code: keyof typeof supplementaryFieldErrors | null) =>
    code ? supplementaryFieldErrors[code] : null;
  const department = useRef<HTMLSelectElement>(null);
  const city = useRef<HTMLSelectElement>(null);
  useFocusAfterFailure(
    view.failures,
    () => (view.focus === 'departamento' ? department : city).current,
  );
  return (
    <KycLayout title={copy.title} busy={view.loadingDepartments || view.loadingCities}>
      {notice}
      <Intro>{copy.intro}</Intro>
      {view.loadingDepartments ? <Muted role="status">{copy.loadingDepartments}</Muted> : null}
      {error ? <ErrorBanner message={error} /> : null}
      {view.canRetryPlaces ? (
        <Button
          type="button"
          $variant="secondary"
          onClick={() => supplementary.send({ type: 'places.retry' })}
        >
          {copy.retry}
        </Button>
      ) : null}
      {!view.loadingDepartments && !view.departmentsFailed ? (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            supplementary.send({ type: 'supplementary.submit' });
          }}
          style={{ display: 'flex', flexDirection: 'column', gap: 16 }}
        >
          <SelectField
            label={copy.bloodLabel}
            value={view.form.tipoSangre}
            options={bloodOptions}
            onValueChange={(value) => supplementary.send({ type: 'blood.change', value })}
          />
          <TextField
            label={copy.addressLabel}
            value={view.form.direccion}
            placeholder={copy.addressPlaceholder}
            autoComplete="street-address"
            maxLength={200}
            onValueChange={(value) => supplementary.send({ type: 'address.change', value })}
          />
          <SelectField
            ref={department}
            label={copy.departmentLabel}
            value={view.form.departamento}
            placeholder={copy.departmentPlaceholder}
            options={view.departments.map((d) => ({ value: d.id, label: d.nombre }))}
            error={fieldError(view.fieldErrors.departamento)}
            required
            onValueChange={(value) => supplementary.send({ type: 'department.change', value })}
          />
          <SelectField
            ref={city}
            label={copy.cityLabel}
            value={view.form.ciudad_id}
            placeholder={copy.cityPlaceholder}
            options={view.cities.map((c) => ({ value: c.id, label: c.nombre }))}
            error={fieldError(view.fieldErrors.ciudad_id)}
            disabled={view.citiesDisabled}
            required
            onValueChange={(value) => supplementary.send({ type: 'city.change', value })}
          />
          {view.loadingCities ? <Muted role="status">{copy.loadingCities}</Muted> : null}
          <SubmitButton disabled={!view.canSubmit}>{copy.submit}</SubmitButton>
        </form>
      ) : null}
    </KycLayout>
  );
}

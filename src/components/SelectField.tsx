import { useId, type Ref, type SelectHTMLAttributes } from 'react';
import styled from 'styled-components';
import { theme } from '../theme/theme';

const Field = styled.div`
  display: flex;
  flex-direction: column;
  gap: 6px;
`;

const Label = styled.label`
  font-weight: 600;
`;

const Select = styled.select<{ $invalid: boolean }>`
  min-height: ${theme.layout.fieldHeight}px;
  border: 2px solid ${({ $invalid }) => ($invalid ? theme.colors.error : theme.colors.border)};
  border-radius: ${theme.radius}px;
  background: ${theme.colors.surface};
  color: ${theme.colors.text};
  padding: 0 12px;
  font: inherit;
  font-size: 1.0625rem;
  &:focus {
    outline: none;
    border-color: ${theme.colors.focus};
  }
  &:disabled {
    color: ${theme.colors.muted};
    background: ${theme.colors.background};
  }
`;

const FieldError = styled.span`
  color: ${theme.colors.error};
  font-size: 0.875rem;
`;

type Option = { value: string; label: string };

/** A labelled select with an optional empty first choice and an inline error. */
export function SelectField({
  label,
  value,
  options,
  placeholder,
  error,
  onValueChange,
  ref,
  ...select
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, 'onChange' | 'value'> & {
  ref?: Ref<HTMLSelectElement>;
  label: string;
  value: string;
  options: readonly Option[];
  placeholder?: string | undefined;
  error?: string | null | undefined;
  onValueChange: (value: string) => void;
}) {
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;
  return (
    <Field>
      <Label htmlFor={id}>{label}</Label>
      <Select
        ref={ref}
        id={id}
        value={value}
        $invalid={Boolean(error)}
        aria-invalid={error ? true : undefined}
        aria-describedby={errorId}
        onChange={(e) => onValueChange(e.currentTarget.value)}
        {...select}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </Field>
  );
}

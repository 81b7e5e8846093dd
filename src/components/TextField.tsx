import { useId, type InputHTMLAttributes, type ReactNode, type Ref } from 'react';
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

const InputRow = styled.div<{ $invalid: boolean }>`
  display: flex;
  align-items: stretch;
  min-height: ${theme.layout.fieldHeight}px;
  border: 2px solid ${({ $invalid }) => ($invalid ? theme.colors.error : theme.colors.border)};
  border-radius: ${theme.radius}px;
  background: ${theme.colors.surface};
  overflow: hidden;
  &:focus-within {
    border-color: ${theme.colors.focus};
  }
`;

const Prefix = styled.span`
  display: flex;
  align-items: center;
  padding: 0 12px;
  background: ${theme.colors.background};
  color: ${theme.colors.muted};
  font-weight: 600;
  border-right: 1px solid ${theme.colors.border};
`;

const Input = styled.input`
  flex: 1;
  min-width: 0;
  border: none;
  padding: 0 14px;
  font: inherit;
  font-size: 1.125rem;
  background: transparent;
  color: ${theme.colors.text};
  &:focus {
    outline: none;
  }
  &:disabled {
    color: ${theme.colors.muted};
  }
`;

const Hint = styled.span`
  color: ${theme.colors.muted};
  font-size: 0.875rem;
`;

const FieldError = styled.span`
  color: ${theme.colors.error};
  font-size: 0.875rem;
`;

export type TextFieldProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'onChange' | 'value' | 'prefix'
> & {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  hint?: string | undefined;
  error?: string | null | undefined;
  /**
   * Announce the error as it appears (role=alert): for a field that keeps the focus while it is
   * checked (the SMS code validates at its 6th digit), where moving the focus would say nothing.
   */
  errorLive?: boolean;
  prefix?: ReactNode;
  /** inside the field's border, after the input (the PIN's show/hide button) */
  suffix?: ReactNode;
  ref?: Ref<HTMLInputElement>;
};

/**
 * A labelled input with optional fixed prefix, hint and its own error under it, wired with
 * aria-invalid and aria-describedby (the hint, then the error).
 */
export function TextField({
  label,
  value,
  onValueChange,
  hint,
  error,
  errorLive = false,
  prefix,
  suffix,
  id,
  ref,
  ...input
}: TextFieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const hintId = hint ? `${inputId}-hint` : undefined;
  const errorId = error ? `${inputId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <Field>
      <Label htmlFor={inputId}>{label}</Label>
      <InputRow $invalid={Boolean(error)}>
        {prefix ? <Prefix aria-hidden="true">{prefix}</Prefix> : null}
        <Input
          ref={ref}
          id={inputId}
          value={value}
          onChange={(e) => onValueChange(e.currentTarget.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...input}
        />
        {suffix}
      </InputRow>
      {hint ? <Hint id={hintId}>{hint}</Hint> : null}
      {error ? (
        <FieldError id={errorId} role={errorLive ? 'alert' : undefined}>
          {error}
        </FieldError>
      ) : null}
    </Field>
  );
}

import { useId, type ReactNode, type Ref } from 'react';
import styled from 'styled-components';
import { theme } from '../theme/theme';

const Row = styled.div`
  display: flex;
  align-items: flex-start;
  gap: 12px;
`;

const Box = styled.input`
  flex: none;
  width: 24px;
  height: 24px;
  margin: 2px 0 0;
  accent-color: ${theme.colors.primary};
`;

const FieldError = styled.span`
  display: block;
  color: ${theme.colors.error};
  font-size: 0.875rem;
`;

/**
 * A labelled checkbox with an optional inline error. The label may hold a link: clicking the link
 * follows it without toggling the box (interactive content inside a label keeps its own action).
 */
export function Checkbox({
  checked,
  onCheckedChange,
  label,
  error,
  disabled,
  ref,
}: {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  label: ReactNode;
  error?: string | null | undefined;
  disabled?: boolean;
  ref?: Ref<HTMLInputElement>;
}) {
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div>
      <Row>
        <Box
          ref={ref}
          id={id}
          type="checkbox"
          checked={checked}
          onChange={(e) => onCheckedChange(e.currentTarget.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={errorId}
          disabled={disabled}
        />
        <label htmlFor={id}>{label}</label>
      </Row>
      {error ? <FieldError id={errorId}>{error}</FieldError> : null}
    </div>
  );
}

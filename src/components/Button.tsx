import { useId, type ReactNode } from 'react';
import styled, { css } from 'styled-components';
import { theme } from '../theme/theme';
import { AppLink } from './Navigation';
import { useHydrated } from './useHydrated';

const base = css`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 100%;
  min-height: ${theme.layout.fieldHeight}px;
  padding: 0 20px;
  border-radius: ${theme.radius}px;
  font: inherit;
  font-weight: 600;
  font-size: 1.0625rem;
  cursor: pointer;
  text-decoration: none;
  &:disabled,
  &[aria-disabled='true'] {
    cursor: not-allowed;
    opacity: 0.55;
  }
`;

export const Button = styled.button<{ $variant?: 'primary' | 'secondary' }>`
  ${base}
  border: 2px solid ${theme.colors.primary};
  background: ${({ $variant }) => ($variant === 'secondary' ? theme.colors.surface : theme.colors.primary)};
  color: ${({ $variant }) => ($variant === 'secondary' ? theme.colors.primaryDark : theme.colors.primaryText)};
`;

const Reason = styled.p`
  margin: -8px 0 0;
  color: ${theme.colors.muted};
  font-size: 0.9375rem;
  text-align: center;
`;

/**
 * A form's submit button, disabled until React has hydrated the page: on a prerendered page a
 * click (or Enter in a field) before then would submit the form natively instead of to the machine.
 * `reason` says, beside it, what is missing while it is disabled (the button's description too,
 * so a screen reader says it with the button).
 */
export function SubmitButton({
  disabled,
  reason,
  children,
}: {
  disabled: boolean;
  reason?: string | null | undefined;
  children: ReactNode;
}) {
  const hydrated = useHydrated();
  const id = useId();
  const shown = disabled && reason ? reason : null;
  return (
    <>
      <Button
        type="submit"
        disabled={!hydrated || disabled}
        aria-describedby={shown ? `${id}-reason` : undefined}
      >
        {children}
      </Button>
      {shown ? <Reason id={`${id}-reason`}>{shown}</Reason> : null}
    </>
  );
}

const linkButton = css<{ $variant?: 'primary' | 'secondary' }>`
  ${base}
  border: 2px solid ${theme.colors.primary};
  background: ${({ $variant }) => ($variant === 'secondary' ? theme.colors.surface : theme.colors.primary)};
  color: ${({ $variant }) => ($variant === 'secondary' ? theme.colors.primaryDark : theme.colors.primaryText)};
`;

/** A plain `<a href>` that looks like a button (a full page load: pages with no JavaScript). */
export const LinkButton = styled.a<{ $variant?: 'primary' | 'secondary' }>`
  ${linkButton}
`;

/** An in-app link (client-side navigation, see Navigation.tsx) that looks like a button. */
export const AppLinkButton = styled(AppLink)<{ $variant?: 'primary' | 'secondary' }>`
  ${linkButton}
`;

export const TextButton = styled.button`
  background: none;
  border: none;
  padding: 8px 0;
  font: inherit;
  color: ${theme.colors.primaryDark};
  text-decoration: underline;
  cursor: pointer;
  &:disabled {
    color: ${theme.colors.muted};
    cursor: not-allowed;
  }
`;

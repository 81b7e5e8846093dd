import styled, { css } from 'styled-components';
import { theme } from '../theme/theme';

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

export const LinkButton = styled.a<{ $variant?: 'primary' | 'secondary' }>`
  ${base}
  border: 2px solid ${theme.colors.primary};
  background: ${({ $variant }) => ($variant === 'secondary' ? theme.colors.surface : theme.colors.primary)};
  color: ${({ $variant }) => ($variant === 'secondary' ? theme.colors.primaryDark : theme.colors.primaryText)};
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

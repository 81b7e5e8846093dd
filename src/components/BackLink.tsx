import styled from 'styled-components';
import { AppLink } from './Navigation';
import { theme } from '../theme/theme';

const Anchor = styled(AppLink)`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 44px;
  height: 44px;
  border-radius: 50%;
  color: ${theme.colors.text};
  &[aria-disabled='true'] {
    pointer-events: none;
    opacity: 0.5;
  }
`;

const Arrow = () => (
  <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <path
      d="M15 5 L8 12 L15 19"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.5"
      strokeLinecap="round"
    />
  </svg>
);

/** The back arrow of the spec: a link with an accessible name. */
export function BackLink({
  to,
  label,
  disabled = false,
}: {
  to: string;
  label: string;
  disabled?: boolean;
}) {
  return (
    <Anchor to={to} aria-label={label} disabled={disabled}>
      <Arrow />
    </Anchor>
  );
}

/** The same arrow as a button, for flows whose back step is an event rather than a route. */
export function BackButton({
  label,
  onClick,
  disabled = false,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
}) {
  return (
    <ArrowButton type="button" aria-label={label} onClick={onClick} disabled={disabled}>
      <Arrow />
    </ArrowButton>
  );
}

const ArrowButton = styled.button`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 44px;
  height: 44px;
  border: none;
  border-radius: 50%;
  background: none;
  color: ${theme.colors.text};
  cursor: pointer;
  &:disabled {
    opacity: 0.5;
    cursor: not-allowed;
  }
`;

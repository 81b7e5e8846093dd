import styled from 'styled-components';
import { theme } from '../theme/theme';

const Svg = styled.svg`
  display: block;
`;

/** The product's mark: a shield with a health cross and a heartbeat, in the app's green. */
export function Logo({ size = 56, title }: { size?: number; title: string }) {
  return (
    <Svg width={size} height={size} viewBox="0 0 64 64" role="img" aria-label={title}>
      <path
        d="M32 3 L56 12 V30 C56 45 45.5 56 32 61 C18.5 56 8 45 8 30 V12 Z"
        fill={theme.colors.primary}
      />
      <path
        d="M27 16 H37 V26 H47 V36 H37 V46 H27 V36 H17 V26 H27 Z"
        fill={theme.colors.primaryText}
      />
      <path
        d="M14 33 H23 L26 27 L30 39 L33 31 H50"
        fill="none"
        stroke={theme.colors.accent}
        strokeWidth={3}
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </Svg>
  );
}

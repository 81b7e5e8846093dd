import styled, { keyframes } from 'styled-components';
import { theme } from '../theme/theme';

const spin = keyframes`
  to { transform: rotate(360deg); }
`;

/**
 * A wait the patient can see (decorative: the text beside it is what is announced). Still for
 * those who ask for reduced motion.
 */
export const Spinner = styled.span.attrs({ 'aria-hidden': true, 'data-testid': 'spinner' })`
  display: inline-block;
  width: 32px;
  height: 32px;
  border: 4px solid ${theme.colors.background};
  border-top-color: ${theme.colors.primary};
  border-radius: 50%;
  animation: ${spin} 0.9s linear infinite;
  justify-self: center;
  @media (prefers-reduced-motion: reduce) {
    animation: none;
  }
`;

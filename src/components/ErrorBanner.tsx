import styled from 'styled-components';
import { theme } from '../theme/theme';

const Box = styled.p<{ $tone: 'error' | 'info' }>`
  margin: 0;
  padding: 12px 14px;
  border-radius: ${theme.radius}px;
  color: ${({ $tone }) => ($tone === 'error' ? theme.colors.error : theme.colors.info)};
  background: ${({ $tone }) => ($tone === 'error' ? theme.colors.errorBg : theme.colors.infoBg)};
  border-left: 4px solid
    ${({ $tone }) => ($tone === 'error' ? theme.colors.error : theme.colors.info)};
`;

/** An error (role=alert, announced at once) or an informative notice (role=status, polite). */
export function ErrorBanner({
  message,
  tone = 'error',
}: {
  message: string;
  tone?: 'error' | 'info';
}) {
  return (
    <Box role={tone === 'error' ? 'alert' : 'status'} $tone={tone}>
      {message}
    </Box>
  );
}

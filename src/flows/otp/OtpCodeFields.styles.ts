import styled from 'styled-components';
import { theme } from '../../theme/theme';

export const ResendRow = styled.div`
  display: flex;
  flex-direction: column;
  align-items: center;
  gap: 4px;
  min-height: 48px;
`;

export const Countdown = styled.p`
  margin: 0;
  color: ${theme.colors.muted};
  font-variant-numeric: tabular-nums;
`;

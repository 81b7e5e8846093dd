import styled from 'styled-components';
import { theme } from '../../../theme/theme';

export const Intro = styled.p`
  margin: 0;
  color: ${theme.colors.muted};
`;

export const Tips = styled.ul`
  margin: 0;
  padding-left: 1.25rem;
  display: flex;
  flex-direction: column;
  gap: 6px;
`;

export const TipsTitle = styled.h2`
  font-size: 1.0625rem;
  margin: 0;
`;

export const Actions = styled.div`
  display: flex;
  flex-direction: column;
  gap: 12px;
`;

export const Center = styled.p`
  margin: 0;
  text-align: center;
`;

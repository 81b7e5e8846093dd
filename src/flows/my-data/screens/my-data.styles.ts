import styled from 'styled-components';
import { theme } from '../../../theme/theme';

export const SectionNav = styled.nav`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
`;

export const SectionButton = styled.button`
  min-height: 48px;
  padding: 0 16px;
  border-radius: ${theme.radius}px;
  border: 2px solid ${theme.colors.primary};
  background: ${theme.colors.surface};
  color: ${theme.colors.primary};
  font: inherit;
  font-weight: 700;
  cursor: pointer;
  &[aria-current='page'] {
    background: ${theme.colors.primary};
    color: ${theme.colors.primaryText};
  }
`;

export const Section = styled.section`
  display: grid;
  gap: 8px;
`;

export const SectionTitle = styled.h2`
  font-size: 1.125rem;
  margin: 0;
`;

export const Fields = styled.dl`
  display: grid;
  gap: 12px;
  margin: 0;
`;

export const Field = styled.div`
  display: grid;
  gap: 2px;
  dt {
    font-weight: 700;
  }
  dd {
    margin: 0;
  }
`;

export const Note = styled.span`
  display: block;
  font-size: 0.875rem;
  color: ${theme.colors.muted};
`;

export const List = styled.ol`
  display: grid;
  gap: 12px;
  margin: 0;
  padding: 0;
  list-style: none;
`;

export const Item = styled.li`
  display: grid;
  gap: 2px;
  padding: 12px;
  border-radius: ${theme.radius}px;
  background: ${theme.colors.background};
`;

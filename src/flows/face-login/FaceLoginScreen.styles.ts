import styled from 'styled-components';
import { theme } from '../../theme/theme';

export const Section = styled.section`
  display: flex;
  flex-direction: column;
  gap: 8px;
`;

export const SectionTitle = styled.h2`
  font-size: 1.0625rem;
  margin: 0;
`;

export const Fieldset = styled.fieldset`
  border: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-wrap: wrap;
  gap: 16px;
  align-items: center;
  legend {
    font-weight: 600;
    margin-bottom: 4px;
  }
  label {
    display: inline-flex;
    align-items: center;
    gap: 6px;
    min-height: 44px;
  }
`;

export const Buttons = styled.div`
  display: flex;
  gap: 12px;
`;

export const StatusList = styled.dl`
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: 4px 12px;
  margin: 0;
  dt {
    color: ${theme.colors.muted};
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

export const FeedbackList = styled.ul`
  margin: 0;
  padding-left: 20px;
`;

export const ResultBox = styled.div<{ $ok: boolean }>`
  padding: 12px 14px;
  border-radius: ${theme.radius}px;
  border-left: 4px solid ${({ $ok }) => ($ok ? theme.colors.primary : theme.colors.error)};
  background: ${({ $ok }) => ($ok ? theme.colors.infoBg : theme.colors.errorBg)};
`;

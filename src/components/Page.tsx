import { createContext, useContext, type ReactNode } from 'react';
import styled from 'styled-components';
import { media, theme } from '../theme/theme';

export const Main = styled.main`
  min-height: 100%;
  display: flex;
  flex-direction: column;
  align-items: center;
  padding: 16px;
  ${media.sm} {
    padding: 32px 24px;
  }
`;

const Card = styled.div`
  width: 100%;
  max-width: ${theme.layout.formMaxWidth}px;
  background: ${theme.colors.surface};
  border-radius: ${theme.radius}px;
  padding: 24px 20px;
  box-shadow: 0 1px 3px rgba(0, 0, 0, 0.08);
  ${media.sm} {
    padding: 32px;
  }
`;

export const Header = styled.header`
  display: flex;
  align-items: center;
  gap: 12px;
  margin-bottom: 16px;
`;

export const Stack = styled.div<{ $gap?: number }>`
  display: flex;
  flex-direction: column;
  gap: ${({ $gap = 16 }) => $gap}px;
`;

export const Muted = styled.p`
  color: ${theme.colors.muted};
  margin: 0;
`;

const InsidePage = createContext(false);

/**
 * The page frame (main landmark, centred card). Inside another Page it adds nothing: a flow may
 * frame its steps once, so what it shows above every step (the wizard's progress) stays mounted,
 * and is read once, while the steps change below it.
 */
export function Page({ children }: { children: ReactNode }) {
  const inside = useContext(InsidePage);
  if (inside) return <>{children}</>;
  return (
    <InsidePage.Provider value>
      <Main>
        <Card>{children}</Card>
      </Main>
    </InsidePage.Provider>
  );
}

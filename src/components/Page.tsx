import { createContext, useContext, type ReactNode } from 'react';
import styled from 'styled-components';
import { common } from '../copy/es';
import { media, theme } from '../theme/theme';
import { Logo } from './Logo';

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

const Card = styled.div<{ $wide?: boolean }>`
  width: 100%;
  max-width: ${({ $wide }) => ($wide ? 880 : theme.layout.formMaxWidth)}px;
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

const BrandRow = styled.div`
  display: flex;
  justify-content: center;
  margin-bottom: 12px;
`;

/** The product's logo as every screen shows it, above the page's card (issue 29 item 18). */
export function Brand({ size = 56 }: { size?: number }) {
  return (
    <BrandRow>
      <Logo size={size} title={common.appName} />
    </BrandRow>
  );
}

const InsidePage = createContext(false);

/**
 * The page frame (main landmark, the logo, centred card). Inside another Page it adds nothing: a flow may
 * frame its steps once, so what it shows above every step (the wizard's progress) stays mounted,
 * and is read once, while the steps change below it.
 */
export function Page({
  children,
  logoSize,
  wide = false,
}: {
  children: ReactNode;
  logoSize?: number;
  /** A screen seen from a step away (the kiosk): up to 880 px wide instead of a form's 470. */
  wide?: boolean;
}) {
  const inside = useContext(InsidePage);
  if (inside) return <>{children}</>;
  return (
    <InsidePage.Provider value>
      <Main>
        <Brand size={logoSize} />
        <Card $wide={wide}>{children}</Card>
      </Main>
    </InsidePage.Provider>
  );
}

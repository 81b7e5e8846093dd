import { useEffect, useRef, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import type { DashboardButton } from '../../../machines/dashboard/dashboard.types';
import { selectDashboardView } from '../../../machines/dashboard/dashboard.selectors';
import { selectLoggingOut, selectPatient } from '../../../machines/session/session.selectors';
import { Button } from '../../components/Button';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Logo } from '../../components/Logo';
import { AppLink } from '../../components/Navigation';
import { Main } from '../../components/Page';
import { common, dashboard as copy } from '../../copy/es';
import { media, theme } from '../../theme/theme';
import { SessionActor } from '../session/session.context';
import { DashboardActor } from './dashboard.context';

const Bar = styled.header`
  position: sticky;
  top: 0;
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 0 12px;
  padding: 8px 16px;
  background: ${theme.colors.surface};
  box-shadow: 0 1px 3px rgba(0, 0, 0, 0.08);
`;

const Brand = styled.div`
  display: flex;
  align-items: center;
  gap: 10px;
  font-weight: 700;
`;

const DotsButton = styled.button`
  width: 48px;
  height: 48px;
  border: none;
  border-radius: 50%;
  background: none;
  cursor: pointer;
  color: ${theme.colors.text};
`;

/**
 * The open menu is a row of the bar, under the logo and the dots, so it pushes the page down
 * instead of lying over the greeting (issue 43 item 10).
 */
const Menu = styled.ul`
  flex-basis: 100%;
  display: flex;
  justify-content: flex-end;
  margin: 4px 0 0;
  padding: 4px 0 0;
  list-style: none;
  border-top: 1px solid ${theme.colors.background};
`;

const menuItemCss = `
  display: flex;
  align-items: center;
  justify-content: flex-end;
  box-sizing: border-box;
  min-width: 200px;
  min-height: 48px;
  padding: 0 16px;
  border: none;
  background: none;
  border-radius: ${theme.radius}px;
  text-align: right;
  font: inherit;
  cursor: pointer;
  color: inherit;
  text-decoration: none;
  &:hover,
  &:focus-visible {
    background: ${theme.colors.background};
  }
`;
const MenuItem = styled.button`
  ${menuItemCss}
`;
/** A menu entry that opens another area of the app (Mis datos). */
const MenuLink = styled(AppLink)`
  ${menuItemCss}
`;

const Grid = styled.div`
  width: 100%;
  max-width: ${theme.layout.formMaxWidth}px;
  display: grid;
  gap: 16px;
  margin-top: 16px;
  ${media.md} {
    max-width: 900px;
    grid-template-columns: repeat(3, 1fr);
  }
`;

const BigButton = styled.button<{ $sos?: boolean }>`
  min-height: 120px;
  border-radius: ${theme.radius * 1.5}px;
  border: none;
  font: inherit;
  font-size: 1.5rem;
  font-weight: 800;
  letter-spacing: 0.04em;
  color: ${theme.colors.primaryText};
  background: ${({ $sos }) => ($sos ? theme.colors.accent : theme.colors.primary)};
  cursor: pointer;
`;

/** SOS's emergency numbers: under the buttons, each line a large link that dials. */
const Emergency = styled.section`
  width: 100%;
  max-width: ${theme.layout.formMaxWidth}px;
  margin-top: 16px;
  padding: 16px;
  display: grid;
  gap: 12px;
  border: 2px solid ${theme.colors.accent};
  border-radius: ${theme.radius * 1.5}px;
  background: ${theme.colors.surface};
`;

const EmergencyTitle = styled.h2`
  font-size: 1.25rem;
  margin: 0;
  &:focus {
    outline: none;
  }
`;

const EmergencyIntro = styled.p`
  margin: 0;
`;

const DialLink = styled.a`
  display: grid;
  align-content: center;
  justify-items: center;
  gap: 4px;
  min-height: 96px;
  padding: 12px 16px;
  border-radius: ${theme.radius * 1.5}px;
  background: ${theme.colors.accent};
  color: ${theme.colors.primaryText};
  text-decoration: none;
  text-align: center;
`;

const DialNumber = styled.span`
  font-size: 2rem;
  font-weight: 800;
  letter-spacing: 0.02em;
`;

const DialDetail = styled.span`
  font-size: 1rem;
`;

const Greeting = styled.h1`
  font-size: 1.25rem;
  margin: 8px 0 0;
`;

const NoticeArea = styled.div`
  width: 100%;
  max-width: ${theme.layout.formMaxWidth}px;
  min-height: 56px;
  margin-top: 16px;
`;

const Dots = () => (
  <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <circle cx="12" cy="5" r="2.2" fill="currentColor" />
    <circle cx="12" cy="12" r="2.2" fill="currentColor" />
    <circle cx="12" cy="19" r="2.2" fill="currentColor" />
  </svg>
);

const BUTTONS: DashboardButton[] = ['autoconsulta', 'historial', 'sos'];

export function DashboardScreen() {
  const view = DashboardActor.useSelector(selectDashboardView);
  const { send } = DashboardActor.useActorRef();
  const patient = SessionActor.useSelector(selectPatient);
  const loggingOut = SessionActor.useSelector(selectLoggingOut);
  const session = SessionActor.useActorRef();
  const firstItem = useRef<HTMLButtonElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const sos = useRef<HTMLButtonElement>(null);
  const emergencyTitle = useRef<HTMLHeadingElement>(null);
  const emergencyShown = view.emergency !== null;

  useEffect(() => {
    if (view.menuOpen) firstItem.current?.focus();
  }, [view.menuOpen]);

  // The numbers appear under the buttons: their title takes the focus, so a screen reader reads
  // them and the page scrolls them into view.
  useEffect(() => {
    if (emergencyShown) emergencyTitle.current?.focus();
  }, [emergencyShown]);

  const onMenuKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      send({ type: 'menu.close' });
      toggle.current?.focus();
    }
  };

  return (
    <>
      <Bar onKeyDown={onMenuKey}>
        <Brand>
          <Logo size={36} title={common.appName} />
          <span>{common.appName}</span>
        </Brand>
        <DotsButton
          ref={toggle}
          type="button"
          aria-label={copy.menuLabel}
          aria-haspopup="menu"
          aria-expanded={view.menuOpen}
          aria-controls="dashboard-menu"
          onClick={() => send({ type: 'menu.toggle' })}
        >
          <Dots />
        </DotsButton>
        {view.menuOpen ? (
          <Menu id="dashboard-menu" role="menu" aria-label={copy.menuLabel}>
            <li role="none">
              <MenuItem
                ref={firstItem}
                role="menuitem"
                type="button"
                disabled={loggingOut}
                onClick={() => session.send({ type: 'session.logout' })}
              >
                {loggingOut ? copy.loggingOut : copy.logout}
              </MenuItem>
            </li>
            <li role="none">
              <MenuLink role="menuitem" to="/mis-datos">
                {copy.myData}
              </MenuLink>
            </li>
          </Menu>
        ) : null}
      </Bar>
      <Main>
        {patient ? <Greeting>{copy.greeting(patient.nombre)}</Greeting> : null}
        <Grid>
          {BUTTONS.map((button) =>
            button === 'sos' ? (
              <BigButton
                key={button}
                ref={sos}
                type="button"
                $sos
                aria-expanded={emergencyShown}
                aria-controls="dashboard-sos"
                onClick={() => send({ type: 'sos.open' })}
              >
                {copy.features.sos}
              </BigButton>
            ) : (
              <BigButton
                key={button}
                type="button"
                onClick={() => send({ type: 'feature.select', feature: button })}
              >
                {copy.features[button]}
              </BigButton>
            ),
          )}
        </Grid>
        {view.emergency ? (
          <Emergency id="dashboard-sos" aria-labelledby="dashboard-sos-title">
            <EmergencyTitle id="dashboard-sos-title" ref={emergencyTitle} tabIndex={-1}>
              {copy.sos.title}
            </EmergencyTitle>
            <EmergencyIntro>{copy.sos.intro}</EmergencyIntro>
            {view.emergency.map(({ line, dial }) => (
              <DialLink key={line} href={`tel:${dial}`}>
                <DialNumber>{copy.sos.lines[line].name}</DialNumber>
                <DialDetail>{copy.sos.lines[line].detail}</DialDetail>
              </DialLink>
            ))}
            <Button
              type="button"
              $variant="secondary"
              onClick={() => {
                send({ type: 'sos.close' });
                sos.current?.focus();
              }}
            >
              {copy.sos.close}
            </Button>
          </Emergency>
        ) : null}
        <NoticeArea aria-live="polite">
          {view.notice ? (
            <ErrorBanner tone="info" message={copy.comingSoon(copy.features[view.notice])} />
          ) : null}
        </NoticeArea>
      </Main>
    </>
  );
}

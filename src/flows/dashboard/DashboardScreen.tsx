import { useEffect, useRef, type KeyboardEvent } from 'react';
import styled from 'styled-components';
import type { DashboardFeature } from '../../../machines/dashboard/dashboard.types';
import { selectDashboardView } from '../../../machines/dashboard/dashboard.selectors';
import { selectLoggingOut, selectPatient } from '../../../machines/session/session.selectors';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Logo } from '../../components/Logo';
import { Main } from '../../components/Page';
import { common, dashboard as copy } from '../../copy/es';
import { media, theme } from '../../theme/theme';
import { SessionActor } from '../session/session.context';
import { DashboardActor } from './dashboard.context';

const Bar = styled.header`
  position: sticky;
  top: 0;
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: 12px;
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

const MenuWrap = styled.div`
  position: relative;
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

const Menu = styled.ul`
  position: absolute;
  right: 0;
  top: 52px;
  min-width: 200px;
  margin: 0;
  padding: 6px 0;
  list-style: none;
  background: ${theme.colors.surface};
  border-radius: ${theme.radius}px;
  box-shadow: 0 4px 16px rgba(0, 0, 0, 0.16);
  z-index: 10;
`;

const MenuItem = styled.button`
  width: 100%;
  min-height: 48px;
  padding: 0 16px;
  border: none;
  background: none;
  text-align: left;
  font: inherit;
  cursor: pointer;
  &:hover,
  &:focus-visible {
    background: ${theme.colors.background};
  }
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

const FEATURES: DashboardFeature[] = ['autoconsulta', 'historial', 'sos'];

export function DashboardScreen() {
  const view = DashboardActor.useSelector(selectDashboardView);
  const { send } = DashboardActor.useActorRef();
  const patient = SessionActor.useSelector(selectPatient);
  const loggingOut = SessionActor.useSelector(selectLoggingOut);
  const session = SessionActor.useActorRef();
  const firstItem = useRef<HTMLButtonElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (view.menuOpen) firstItem.current?.focus();
  }, [view.menuOpen]);

  const onMenuKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      send({ type: 'menu.close' });
      toggle.current?.focus();
    }
  };

  return (
    <>
      <Bar>
        <Brand>
          <Logo size={36} title={common.appName} />
          <span>{common.appName}</span>
        </Brand>
        <MenuWrap onKeyDown={onMenuKey}>
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
            </Menu>
          ) : null}
        </MenuWrap>
      </Bar>
      <Main>
        {patient ? <Greeting>{copy.greeting(patient.nombre)}</Greeting> : null}
        <Grid>
          {FEATURES.map((feature) => (
            <BigButton
              key={feature}
              type="button"
              $sos={feature === 'sos'}
              onClick={() => send({ type: 'feature.select', feature })}
            >
              {copy.features[feature]}
            </BigButton>
          ))}
        </Grid>
        <NoticeArea aria-live="polite">
          {view.notice ? (
            <ErrorBanner tone="info" message={copy.comingSoon(copy.features[view.notice])} />
          ) : null}
        </NoticeArea>
      </Main>
    </>
  );
}

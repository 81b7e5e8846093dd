import type { ReactNode } from 'react';
import { selectSessionStatus } from '../../../machines/session/session.selectors';
import { common } from '../../copy/es';
import { Redirect } from '../../components/Navigation';
import { Page, Muted } from '../../components/Page';
import { SessionActor } from './session.context';

function Checking() {
  return (
    <Page>
      <Muted role="status">{common.loading}</Muted>
    </Page>
  );
}

/** /dashboard needs a live session, else /login (docs/decisions.md). */
export function RequireSession({ children }: { children: ReactNode }) {
  const status = SessionActor.useSelector(selectSessionStatus);
  if (status === 'checking') return <Checking />;
  if (status === 'anonymous') return <Redirect to="/login" />;
  return children;
}

/**
 * /login with a live session goes to /dashboard. The form shows while the session is being checked
 * (it is prerendered, and most patients who open /login have no session): a logged-in patient is
 * moved on when the check answers.
 */
export function RedirectIfSession({ children }: { children: ReactNode }) {
  const status = SessionActor.useSelector(selectSessionStatus);
  if (status === 'authenticated') return <Redirect to="/dashboard" />;
  return children;
}

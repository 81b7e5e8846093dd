import { lazy, Suspense } from 'react';
import { Route, Switch } from 'wouter';
import { inspect } from '../../app/inspector';
import { common } from '../../copy/es';
import { Muted, Page } from '../../components/Page';
import { RedirectIfSession, RequireSession } from './guards';
import { SessionActor } from './session.context';

const LoginFlow = lazy(() => import('../login/LoginFlow'));
const DashboardFlow = lazy(() => import('../dashboard/DashboardFlow'));

/** /login and /dashboard behind their guards; rendered inside a SessionActor Provider. */
export function AuthRoutes() {
  return (
    <Suspense
      fallback={
        <Page>
          <Muted role="status">{common.loading}</Muted>
        </Page>
      }
    >
      <Switch>
        <Route path="/login">
          <RedirectIfSession>
            <LoginFlow />
          </RedirectIfSession>
        </Route>
        <Route path="/dashboard">
          <RequireSession>
            <DashboardFlow />
          </RequireSession>
        </Route>
      </Switch>
    </Suspense>
  );
}

/**
 * The routes that need the app-level session actor. Lazy, so the landing page loads no
 * state-machine code; one Provider across both routes, so login hands over to the dashboard.
 */
export default function AuthArea() {
  return (
    <SessionActor.Provider options={{ inspect }}>
      <AuthRoutes />
    </SessionActor.Provider>
  );
}

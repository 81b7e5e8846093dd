import { lazy } from 'react';
import { Route, Switch } from 'wouter';
import { inspect } from '../../app/inspector';
import { RedirectIfSession, RequireSession } from './guards';
import { SessionActor } from './session.context';

const LoginFlow = lazy(() => import('../login/LoginFlow'));
const DashboardFlow = lazy(() => import('../dashboard/DashboardFlow'));

/**
 * The routes that need the app-level session actor (/login, /dashboard). Lazy, so the landing page
 * loads no state-machine code; one Provider across both routes, so login hands over to the dashboard.
 */
export default function AuthArea() {
  return (
    <SessionActor.Provider options={{ inspect }}>
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
    </SessionActor.Provider>
  );
}

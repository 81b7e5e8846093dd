import { lazy, Suspense, type ReactNode } from 'react';
import { Outlet, Route, Routes } from 'react-router-dom';
import { inspect } from '../../app/inspector';
import { common } from '../../copy/es';
import { Muted, Page } from '../../components/Page';
import { RedirectIfSession, RequireSession } from './guards';
import { SessionActor } from './session.context';

const LoginFlow = lazy(() => import('../login/LoginFlow'));
const DashboardFlow = lazy(() => import('../dashboard/DashboardFlow'));

function Loading({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <Page>
          <Muted role="status">{common.loading}</Muted>
        </Page>
      }
    >
      {children}
    </Suspense>
  );
}

/** /login: the login flow, or /dashboard once the session machine knows a patient. */
export function LoginRoute() {
  return (
    <Loading>
      <RedirectIfSession>
        <LoginFlow />
      </RedirectIfSession>
    </Loading>
  );
}

/** /dashboard: needs a live session, else /login. */
export function DashboardRoute() {
  return (
    <Loading>
      <RequireSession>
        <DashboardFlow />
      </RequireSession>
    </Loading>
  );
}

/** /login and /dashboard as their own route table, for stories (inside a SessionActor Provider). */
export function AuthRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<LoginRoute />} />
      <Route path="/dashboard" element={<DashboardRoute />} />
    </Routes>
  );
}

/**
 * The layout of the routes that need the app-level session actor (src/app/routes.tsx nests /login
 * and /dashboard under it). Lazy, so the landing page loads no state-machine code; one Provider
 * across both routes, so login hands over to the dashboard.
 */
export default function AuthArea() {
  return (
    <SessionActor.Provider options={{ inspect }}>
      <Outlet />
    </SessionActor.Provider>
  );
}

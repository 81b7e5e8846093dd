import { lazy, Suspense, type ReactNode } from 'react';
import { Route, Switch } from 'wouter';
import { common } from '../copy/es';
import { Muted, Page } from '../components/Page';
import LandingPage from '../pages/LandingPage';

// Route-level code splitting: the landing and login chunks never load camera, KYC or kiosk code.
const AuthArea = lazy(() => import('../flows/session/AuthArea'));
const OnboardingFlow = lazy(() => import('../flows/onboarding/OnboardingFlow'));
const RecoverPinFlow = lazy(() => import('../flows/recover-pin/RecoverPinFlow'));
const FaceLoginFlow = lazy(() => import('../flows/face-login/FaceLoginFlow'));
const TycPage = lazy(() => import('../pages/TycPage'));
const NotFoundPage = lazy(() => import('../pages/NotFoundPage'));

function Loading() {
  return (
    <Page>
      <Muted role="status">{common.loading}</Muted>
    </Page>
  );
}

const lazyRoute = (node: ReactNode) => <Suspense fallback={<Loading />}>{node}</Suspense>;

export function AppRoutes() {
  return (
    <Switch>
      <Route path="/">
        <LandingPage />
      </Route>
      <Route path={/^\/(?:login|dashboard)\/?$/}>{lazyRoute(<AuthArea />)}</Route>
      <Route path="/onboarding">{lazyRoute(<OnboardingFlow />)}</Route>
      <Route path="/recuperar-pin">{lazyRoute(<RecoverPinFlow />)}</Route>
      <Route path="/face-login">{lazyRoute(<FaceLoginFlow />)}</Route>
      <Route path="/tyc">{lazyRoute(<TycPage />)}</Route>
      <Route>{lazyRoute(<NotFoundPage />)}</Route>
    </Switch>
  );
}

import { lazy, Suspense, type ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import { common } from '../copy/es';
import { Muted, Page } from '../components/Page';

// Route-level code splitting: the landing and login chunks never load camera, KYC or kiosk code.
// Every route's chunks are modulepreloaded by its prerendered HTML (scripts/prerender.ts), so
// lazy routes cost no request waterfall.
const LandingPage = lazy(() => import('../pages/LandingPage'));
const AuthArea = lazy(() => import('../flows/session/AuthArea'));
const LoginRoute = lazy(() =>
  import('../flows/session/AuthArea').then((m) => ({ default: m.LoginRoute })),
);
const DashboardRoute = lazy(() =>
  import('../flows/session/AuthArea').then((m) => ({ default: m.DashboardRoute })),
);
// 'Mis datos' (issue 45): its own chunk, never in /dashboard's first load.
const MyDataFlow = lazy(() => import('../flows/my-data/MyDataFlow'));
const OnboardingFlow = lazy(() => import('../flows/onboarding/OnboardingFlow'));
const ContinueOnPhoneFlow = lazy(() =>
  import('../flows/onboarding/OnboardingFlow').then((m) => ({ default: m.ContinueOnPhoneFlow })),
);
const RecoveryFlow = lazy(() => import('../flows/recovery/RecoveryFlow'));
const FaceLoginFlow = lazy(() => import('../flows/face-login/FaceLoginFlow'));
// The back office (/operador, issue 30): its own chunk, never loaded by a patient's page. Its
// paths (contract/operators.ts OPERATOR_PATH, OPERATOR_ENROL_PATH) are written out here: importing
// them would put the contract's zod schemas in every page's first load.
const loadOperator = () => import('../flows/operators/OperatorFlow');
const OperatorFlow = lazy(loadOperator);
const OperatorEnrolmentFlow = lazy(() =>
  loadOperator().then((m) => ({ default: m.OperatorEnrolmentFlow })),
);
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

/** The app's routes (react-router-dom 7, declarative). */
export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={lazyRoute(<LandingPage />)} />
      <Route element={lazyRoute(<AuthArea />)}>
        <Route path="/login" element={lazyRoute(<LoginRoute />)} />
        <Route path="/dashboard" element={lazyRoute(<DashboardRoute />)} />
        <Route path="/mis-datos" element={lazyRoute(<MyDataFlow />)} />
      </Route>
      <Route path="/onboarding" element={lazyRoute(<OnboardingFlow />)} />
      <Route path="/onboarding/celular" element={lazyRoute(<ContinueOnPhoneFlow />)} />
      <Route path="/recuperar-pin" element={lazyRoute(<RecoveryFlow />)} />
      <Route path="/face-login" element={lazyRoute(<FaceLoginFlow />)} />
      <Route path="/operador" element={lazyRoute(<OperatorFlow />)} />
      <Route path="/operador/alta" element={lazyRoute(<OperatorEnrolmentFlow />)} />
      <Route path="/tyc" element={lazyRoute(<TycPage />)} />
      <Route path="*" element={lazyRoute(<NotFoundPage />)} />
    </Routes>
  );
}

import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const apiPort = Number(process.env.API_PORT ?? 3001);
const root = path.dirname(new URL(import.meta.url).pathname);

/**
 * SSR build only: each chunk records, when Node evaluates it, the source modules it holds
 * (`globalThis.__prerenderModules`). scripts/prerender.ts renders each route in a fresh process, so
 * the modules a route's render loaded are exactly the lazy chunks its HTML must modulepreload.
 */
function recordSsrModules(): Plugin {
  return {
    name: 'record-ssr-modules',
    apply: 'build',
    renderChunk(code, chunk) {
      if (!this.environment || this.environment.config.consumer !== 'server') return null;
      const ids = chunk.moduleIds
        .filter((id) => id.startsWith(root + '/') && !id.includes('/node_modules/'))
        .map((id) => path.relative(root, id));
      if (ids.length === 0) return null;
      return `(globalThis.__prerenderModules ??= new Set()); for (const id of ${JSON.stringify(ids)}) globalThis.__prerenderModules.add(id);\n${code}`;
    },
  };
}

/**
 * react-router marks neither its `React.forwardRef(...)` components pure nor skips their
 * `X.displayName = 'X'` lines, so the bundle kept every component it exports (NavLink, Form,
 * ScrollRestoration and their data-router helpers) although the app uses a handful: about 1.8 KB
 * gzip of /login's first load. This marks those calls pure and drops the dev-only names, in
 * react-router's own files only, so tree-shaking removes what nothing imports.
 */
function treeShakeReactRouter(): Plugin {
  return {
    name: 'tree-shake-react-router',
    apply: 'build',
    transform: {
      filter: { id: /[\\/]node_modules[\\/]react-router[\\/]dist[\\/].*\.m?js$/ },
      handler(code) {
        return {
          code: code
            .replace(/(?<![\w$.])(React\d*\.forwardRef\()/g, '/* @__PURE__ */ $1')
            .replace(/^[A-Za-z_$][\w$]*\.displayName = "[\w$]+";$/gm, ''),
          map: null,
        };
      },
    },
  };
}

/**
 * Step 4's own modules: the KYC machine, its screens (not KycLayout, which step 4's loading screen
 * uses) and its texts.
 */
const KYC_MODULE =
  /[\\/](?:machines[\\/]kyc[\\/][^\\/]+|src[\\/]flows[\\/]onboarding[\\/]screens[\\/](?:KycScreen|kyc[\\/](?!KycLayout)[^\\/]+)|src[\\/]copy[\\/]es\.kyc)\.tsx?$/;

/**
 * What every page with JavaScript runs: React, styled-components, the router, the app's shell, the
 * components every screen shows (including /tyc and 404) and the HTTP client (journey insight sends
 * with it from every page). One chunk instead of a dozen small
 * ones: gzip compresses a whole better than its parts, and each file costs a request.
 */
const SHELL_MODULE =
  /[\\/]node_modules[\\/](?:react|react-dom|scheduler|styled-components|stylis|react-router|react-router-dom)[\\/]|preload-helper|[\\/]src[\\/](?:app[\\/]|theme[\\/]|copy[\\/]es\.ts$|components[\\/](?:Page|Heading|Navigation|BackLink|Button|Logo|ErrorBanner|VisuallyHidden|useHydrated)\.tsx?$)|[\\/]machines[\\/](?:insight[\\/]deferred|shared[\\/](?:http|errors))\.ts$/;

/**
 * What every flow runs on top of the shell: XState and the form fields. Not zod (the
 * next group), nor the camera (src/components/CameraView), nor a flow's own machine.
 */
const FLOW_RUNTIME_MODULE =
  /[\\/]node_modules[\\/](?:xstate|@xstate[\\/]react|use-sync-external-store|use-isomorphic-layout-effect)[\\/]|[\\/]machines[\\/]shared[\\/]input\.ts$|[\\/]contract[\\/](?:login|session)\.constants\.ts$|[\\/]src[\\/]components[\\/](?:TextField|PinField|useFocusAfterFailure)\.tsx?$/;

/**
 * zod and the contract's shared, login and session schemas: the other flows import them statically; /login
 * loads them beside its first request (machines/session/session.api.ts), after hydration.
 */
const SCHEMA_MODULE =
  /[\\/]node_modules[\\/]zod[\\/]|[\\/]contract[\\/](?:common|login|session)\.ts$/;

/**
 * Journey insight, loaded when the page is idle (machines/insight/deferred.ts): one chunk, its
 * catalogue included. Left out, the catalogue landed in the dynamic import's facade chunk, which
 * imports this one: a cycle in which the derivation read the catalogue before it was evaluated.
 */
const INSIGHT_MODULE =
  /[\\/]machines[\\/]insight[\\/](?:browser|derive|sender)\.ts$|[\\/]contract[\\/]insight(?:\.constants)?\.ts$/;

/** /login and /dashboard's session, login machine and their views: one chunk ('session'). */
const AUTH_MODULE = /[\\/](?:machines|src[\\/]flows)[\\/](?:session|login)[\\/][^\\/]+\.tsx?$/;

/**
 * One runtime everywhere: dev, the build, Storybook and the jsdom tests all run react-dom.
 * `vite build` makes the client (dist/, with .vite/manifest.json); `vite build --ssr
 * src/entry-server.tsx` the prerenderer (dist-ssr/), which scripts/prerender.ts runs.
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), recordSsrModules(), treeShakeReactRouter()],
  // styled-components: a componentId derived from the file path and position, in the client and
  // the SSR build alike, so server and client class names match by construction.
  oxc: {
    plugins: {
      styledComponents: { ssr: true, displayName: true, fileName: true, namespace: 'pp' },
    },
  },
  // Its CommonJS entry has no default export under Node's ESM loader: bundle it into the SSR build.
  ssr: { noExternal: ['styled-components'] },
  build: {
    outDir: isSsrBuild ? 'dist-ssr' : 'dist',
    emptyOutDir: true,
    manifest: !isSsrBuild,
    sourcemap: false,
    // Every browser the app supports preloads modules natively: no polyfill in the login bundle.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 600,
    rolldownOptions: isSsrBuild
      ? {}
      : {
          output: {
            codeSplitting: {
              groups: [
                // /login's first load (issue 19, <= 120 KB gzip): the shell, the flow runtime and
                // the auth chunk beside the entry; the schemas come with its first request. Only
                // the listed modules (their dependencies stay where rolldown puts them), so no page
                // gets another route's code.
                {
                  name: 'shell',
                  test: SHELL_MODULE,
                  priority: 30,
                  includeDependenciesRecursively: false,
                },
                {
                  name: 'flow-runtime',
                  test: FLOW_RUNTIME_MODULE,
                  priority: 20,
                  includeDependenciesRecursively: false,
                },
                {
                  name: 'insight',
                  test: INSIGHT_MODULE,
                  priority: 15,
                  includeDependenciesRecursively: false,
                },
                {
                  name: 'schemas',
                  test: SCHEMA_MODULE,
                  priority: 15,
                  includeDependenciesRecursively: false,
                },
                {
                  name: 'session',
                  test: AUTH_MODULE,
                  priority: 10,
                  includeDependenciesRecursively: false,
                },
                {
                  // Step 4 (KYC): its machine and its screens in one chunk, so the wizard's
                  // (pre)load of the machine brings the screens too. Only these modules: what
                  // they share with other pages (camera, polling, xstate, http) stays in shared
                  // chunks, so no other page ever loads this one.
                  name: 'kyc',
                  test: KYC_MODULE,
                  includeDependenciesRecursively: false,
                },
              ],
            },
          },
        },
  },
  server: {
    port: Number(process.env.PORT ?? 5173),
    strictPort: true,
    // The Host the page called goes through to the API (a string target would change it to the
    // API's own): the API's same-origin checks compare it with the Origin the browser sends, and
    // every journey-insight batch and back-office call was refused (403) in `npm run dev` (issue
    // 43 item 11); links the API writes from the request's origin point at this server too.
    proxy: { '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false } },
  },
}));

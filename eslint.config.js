import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import react from 'eslint-plugin-react';
import reactHooks from 'eslint-plugin-react-hooks';
import importPlugin from 'eslint-plugin-import';
import globals from 'globals';

/** src/ never reaches the API or actors directly (views render selectors and send events). */
const srcImportPatterns = [
  {
    group: ['**/*.api', '**/*.actors'],
    message: 'src/ never imports *.api.ts or *.actors.ts.',
  },
];

/**
 * Server areas (issue 27 part 5). The shared ones (http, db, env, security, sms, context, config)
 * are used by every area and import no area: an arrow from them to an area goes upward. Areas
 * import each other only along the edges listed here; the composition roots (server/app.ts,
 * server/main.ts) and the operator CLIs (server/cli/) may import any area.
 */
const SERVER_SHARED = ['http', 'db', 'security', 'sms'];
const SERVER_AREAS = [
  'cases',
  'face-login',
  'geo',
  'identity',
  'insight',
  'lifecycle',
  'login',
  'my-data',
  'onboarding',
  'operators',
  'patients',
  'recovery',
  'session',
];
/** area -> the areas it may import (each edge a reason: see docs/architecture.md's glossary). */
const SERVER_EDGES = {
  // face authentication runs on the identity engine; a recognition is written to the patient's
  // access log (my-data)
  'face-login': ['identity', 'my-data'],
  // registration reads the engine's KYC sessions, the geography, and creates the patient; it reads
  // its case through its own port (onboarding/case-reader.ts, filled by app.ts), never server/cases
  onboarding: ['identity', 'geo', 'patients'],
  // a case opens on a registration and hands it back (its draft, holds, the decision's link) and
  // reads the KYC session's evidence through registration's KycStore; the desk photo runs on the
  // identity engine (its gates, its image check, the face comparison); an approved correction
  // (issue 45 item 5) writes the patient's field through server/patients
  cases: ['onboarding', 'identity', 'patients'],
  // revoking an operator returns the cases they held to the queue, in the revocation's transaction
  // (cases/claims.ts); the case routes reach operators only through operatorAuthPlugin's
  // decorations (app.requireOperator, request.operator), by plugin name, never by import
  operators: ['cases'],
  // a login answers with its session, and is written to the patient's access log (my-data)
  login: ['session', 'my-data'],
  // PIN recovery sets the patient's PIN and ends the sessions; the recovery is written to the
  // patient's access log (my-data)
  recovery: ['patients', 'session', 'my-data'],
  // Mis datos answers the patient of the live session only; the download opens the images a case
  // still keeps with the cases area's sealer (cases/seal.ts); deleting an account (issue 45 item
  // 6) checks the PIN with login's own check and erases through each table's writer (patients,
  // cases' store), in the job's one transaction; 'Mi rostro' (item 4) confirms with login's PIN
  // check, locks the face on the patient (patients) and withdraws it (identity's store); a
  // correction it asks is a case (item 5)
  'my-data': ['session', 'cases', 'login', 'patients', 'identity'],
  // a patient's new PIN clears the login ledger (clearLoginGuard)
  patients: ['login'],
};
const serverZones = [
  ...SERVER_SHARED.map((shared) => ({
    target: `./server/${shared}`,
    from: SERVER_AREAS.map((area) => `./server/${area}`),
    message: `server/${shared}/ is shared by every area and imports none.`,
  })),
  ...SERVER_AREAS.map((area) => ({
    target: `./server/${area}`,
    from: SERVER_AREAS.filter(
      (other) => other !== area && !SERVER_EDGES[area]?.includes(other),
    ).map((other) => `./server/${other}`),
    message: `server/${area}/ imports another area only along the edges of eslint.config.js (SERVER_EDGES).`,
  })),
];

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'dist-ssr/**',
      '.try/**',
      'storybook-static/**',
      'node_modules/**',
      'coverage/**',
      'test-results/**',
      'playwright-report/**',
      '.data/**',
      '.e2e-data/**',
      'tests/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { import: importPlugin },
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-console': 'off',
      // Layer boundaries (docs/architecture.md).
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './machines',
              from: './src',
              message: 'machines/ never imports the React app.',
            },
            { target: './machines', from: './server', message: 'machines/ runs in the browser.' },
            { target: './contract', from: './src' },
            {
              target: './src',
              from: './contract',
              message: 'Views take what they need from machines/ (views -> machines -> contract).',
            },
            { target: './contract', from: './machines' },
            { target: './contract', from: './server' },
            {
              target: './src',
              from: './server',
              message: 'The browser never imports server code.',
            },
            { target: './server', from: './src' },
            {
              target: './server',
              from: './machines',
              message: 'The server takes what it shares with the browser from contract/.',
            },
            ...serverZones,
          ],
        },
      ],
      // No import circle, type-only ones included (issue 27 part 5).
      'import/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // The environment is read by server/main.ts and the operator CLIs only; every other module
    // gets its settings from createContext (server/app.ts).
    files: ['server/**/*.ts'],
    ignores: ['server/main.ts', 'server/cli/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message:
            'process.env is read in server/main.ts and the CLIs only (createContext takes the settings).',
        },
      ],
    },
  },
  {
    files: ['machines/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'react', message: 'machines/ has no React.' },
            { name: 'styled-components', message: 'machines/ has no styling.' },
            { name: '@xstate/react', message: 'machines/ has no React.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { react, 'react-hooks': reactHooks },
    settings: { react: { version: '19' } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Views render selectors and send events: no API calls, actors or fetch in src/.
      'no-restricted-imports': [
        'error',
        {
          paths: ['react-router', 'react-router-dom', 'wouter'].map((name) => ({
            name,
            message:
              'Navigate with src/components/Navigation.tsx (AppLink, AppLinkButton, BackLink, Redirect) or a plain <a href>.',
          })),
          patterns: srcImportPatterns,
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'The only fetch is machines/shared/http.ts.' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='setInterval']",
          message: 'Timers live in machines.',
        },
        {
          selector: "CallExpression[callee.name='setTimeout']",
          message: 'Timers live in machines.',
        },
      ],
      // Texts come from src/copy/es.ts.
      'react/jsx-no-literals': [
        'error',
        { noStrings: true, ignoreProps: true, allowedStrings: ['·', '•', '+595'] },
      ],
    },
  },
  {
    // The router's only doors: the app shell, the /login-/dashboard layout, shared navigation.
    files: [
      'src/app/**',
      'src/main.tsx',
      'src/entry-server.tsx',
      'src/flows/session/AuthArea.tsx',
      'src/components/Navigation.tsx',
    ],
    rules: { 'no-restricted-imports': ['error', { patterns: srcImportPatterns }] },
  },
  {
    files: ['src/copy/**'],
    rules: { 'react/jsx-no-literals': 'off' },
  },
);

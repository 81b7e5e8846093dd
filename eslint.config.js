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
          ],
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

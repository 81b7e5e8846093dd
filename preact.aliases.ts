import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The app is written against React's API and ships on Preact's compat layer (about 4 KB instead of
 * react-dom's 60 KB gzip), which keeps `/login` inside its 110 KB budget on the slow mobile
 * connections many patients have (bench/bundle-size.ts measures it). Used by the production build
 * only; Playwright walks every journey on that build.
 */
const require = createRequire(import.meta.url);
const preact = path.dirname(require.resolve('preact/package.json'));

export const preactAliases = [
  { find: /^react-dom\/client$/, replacement: path.join(preact, 'compat/client.mjs') },
  { find: /^react-dom$/, replacement: path.join(preact, 'compat/dist/compat.module.js') },
  {
    find: /^react\/jsx-runtime$/,
    replacement: path.join(preact, 'jsx-runtime/dist/jsxRuntime.module.js'),
  },
  {
    find: /^react\/jsx-dev-runtime$/,
    replacement: path.join(preact, 'jsx-runtime/dist/jsxRuntime.module.js'),
  },
  { find: /^react$/, replacement: path.join(preact, 'compat/dist/compat.module.js') },
];

import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { preactAliases } from './preact.aliases';

const apiPort = Number(process.env.API_PORT ?? 3001);

/**
 * The product build ships on Preact's compat layer (preact.aliases.ts), and the Playwright suite
 * walks every journey on that build. The dev server, Storybook and the jsdom tests render the same
 * components with React, whose tooling (fast refresh, Storybook's renderer, Testing Library) they need.
 */
export default defineConfig(({ command }) => ({
  plugins: [react()],
  resolve: command === 'build' ? { alias: preactAliases } : {},
  build: {
    outDir: 'dist',
    sourcemap: false,
    // Every browser the app supports preloads modules natively: no polyfill in the login bundle.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 600,
  },
  server: {
    port: Number(process.env.PORT ?? 5173),
    strictPort: true,
    proxy: { '/api': `http://127.0.0.1:${apiPort}` },
  },
}));

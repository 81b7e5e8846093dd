import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['tests/{machines,server,contract,synthetic}/**/*.test.ts'],
          testTimeout: 20_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The identity engine's own tests (real face and OCR models). `npm test` runs them once, on
        // Node.js 24 (scripts/test-all.sh), with native.test.ts (onnxruntime-node's binary) on
        // the machine's Node.js too; `npx vitest run` runs them with everything else.
        extends: true,
        test: {
          name: 'engine',
          environment: 'node',
          include: ['tests/identity/**/*.test.ts'],
          testTimeout: 20_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'dom',
          environment: 'jsdom',
          include: ['tests/{screens,stories}/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/setup-dom.ts'],
          testTimeout: 20_000,
        },
      },
    ],
  },
});

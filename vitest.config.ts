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
          // One module graph a worker, not one a file: the files import the same server (Fastify,
          // PGlite, the routes), and evaluating it again for each file (123 then) was most of the
          // tier (this project alone, 2 workers, load 2-3: 420 s with isolation, import 138 s of
          // it; 245 s without, import 17 s, 2026-12-01). Each file builds its own app and database
          // (tests/server/helpers.ts useTestApp); globals a file stubs are put back before each
          // test, and fake timers are put back by the files that set them.
          isolate: false,
          unstubGlobals: true,
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

import type { StorybookConfig } from '@storybook/react-vite';
import { mergeConfig } from 'vite';

/** Warnings the stories cause by design: the build leaves them out (issue 43 item 11). */
const EXPECTED_WARNINGS = new Set([
  // The stories import the KYC machine that the app loads on demand (its own chunk there).
  'INEFFECTIVE_DYNAMIC_IMPORT',
]);

const config: StorybookConfig = {
  stories: ['../stories/**/*.stories.@(ts|tsx)'],
  framework: { name: '@storybook/react-vite', options: {} },
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  typescript: { reactDocgen: false },
  /**
   * `npm run build-storybook` is quiet (issue 43 item 11: 143 lines with --quiet): Vite logs its
   * warnings only, not every chunk it wrote, and not the two warnings the stories always cause
   * (the preview is one large chunk, never what a patient loads; the KYC machine imported by the
   * stories). `npm run storybook` keeps its usual output.
   */
  viteFinal: (vite, { configType }) =>
    configType === 'PRODUCTION'
      ? mergeConfig(vite, {
          logLevel: 'warn',
          build: {
            chunkSizeWarningLimit: 4096,
            rolldownOptions: {
              onwarn(warning: { code?: string }, warn: (w: typeof warning) => void) {
                if (!EXPECTED_WARNINGS.has(warning.code ?? '')) warn(warning);
              },
            },
          },
        })
      : vite,
};
export default config;

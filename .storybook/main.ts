import path from 'node:path';
import type { StorybookConfig } from '@storybook/react-vite';

const config: StorybookConfig = {
  stories: ['../stories/**/*.stories.@(ts|tsx)'],
  framework: { name: '@storybook/react-vite', options: {} },
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
  typescript: { reactDocgen: false },
  // Storybook renders with React: keep the product build's Preact aliases out (vite.config.ts).
  viteFinal: (config) => {
    const alias = config.resolve?.alias;
    const isPreact = (a: { replacement: string }) =>
      a.replacement.includes(`${path.sep}preact${path.sep}`);
    return {
      ...config,
      resolve: {
        ...config.resolve,
        alias: Array.isArray(alias) ? alias.filter((a) => !isPreact(a)) : alias,
      },
    };
  },
};
export default config;

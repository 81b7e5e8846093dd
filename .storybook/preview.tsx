import type { Preview } from '@storybook/react-vite';
import { ThemeProvider } from 'styled-components';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { GlobalStyle } from '../src/theme/GlobalStyle';
import { theme } from '../src/theme/theme';

/** Every story: the app theme, and a memory router so links and redirects stay inside the story. */
const preview: Preview = {
  parameters: {
    layout: 'fullscreen',
    viewport: { defaultViewport: 'mobile1' },
  },
  decorators: [
    (Story, { parameters }) => (
      <ThemeProvider theme={theme}>
        <GlobalStyle />
        <Router
          hook={memoryLocation({ path: (parameters.path as string | undefined) ?? '/' }).hook}
        >
          <Story />
        </Router>
      </ThemeProvider>
    ),
  ],
};
export default preview;

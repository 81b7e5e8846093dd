import type { Preview } from '@storybook/react-vite';
import { ThemeProvider } from 'styled-components';
import { MemoryRouter } from 'react-router-dom';
import { MINIMAL_VIEWPORTS } from 'storybook/viewport';
import { GlobalStyle } from '../src/theme/GlobalStyle';
import { theme } from '../src/theme/theme';

/**
 * Every story: the app theme, and a memory router so links and redirects stay inside the story;
 * at a phone's width, as patients see the app (Storybook 9+ sets the viewport through
 * `initialGlobals`: its `defaultViewport` parameter is gone and was silently ignored).
 */
const preview: Preview = {
  parameters: {
    layout: 'fullscreen',
    viewport: { options: MINIMAL_VIEWPORTS },
  },
  initialGlobals: { viewport: { value: 'mobile1', isRotated: false } },
  decorators: [
    (Story, { parameters }) => (
      <ThemeProvider theme={theme}>
        <GlobalStyle />
        <MemoryRouter initialEntries={[(parameters.path as string | undefined) ?? '/']}>
          <Story />
        </MemoryRouter>
      </ThemeProvider>
    ),
  ],
};
export default preview;

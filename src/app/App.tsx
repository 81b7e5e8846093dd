import { ThemeProvider } from 'styled-components';
import { GlobalStyle } from '../theme/GlobalStyle';
import { theme } from '../theme/theme';
import { AppRoutes } from './routes';

/** The app inside a router: BrowserRouter in the browser (main.tsx), StaticRouter when prerendering. */
export function App() {
  return (
    <ThemeProvider theme={theme}>
      <GlobalStyle />
      <AppRoutes />
    </ThemeProvider>
  );
}

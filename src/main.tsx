import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './app/App';
import { initInspector } from './app/inspector';

await initInspector();

const root = document.getElementById('root');
if (root) {
  const app = (
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>
  );
  // Prerendered routes (scripts/prerender.ts) arrive with their HTML: hydrate it, in a transition,
  // so React hydrates in slices of a few milliseconds and yields between them (outside one, the
  // whole tree hydrates in one long task: about 140 ms on a phone 10x slower than this machine,
  // most of /login's Total Blocking Time). The page is visible and usable as HTML meanwhile. The
  // shell of the other routes has an empty root: render.
  if (root.hasChildNodes()) startTransition(() => void hydrateRoot(root, app));
  else createRoot(root).render(app);
}

import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { ServerStyleSheet } from 'styled-components';
import { App } from './app/App';

export type Prerendered = {
  /** The markup inside #root. */
  html: string;
  /** styled-components' <style data-styled> tags for <head>. */
  styles: string;
  /** Source modules the render evaluated (recorded by the SSR build, see vite.config.ts). */
  modules: string[];
};

/**
 * Renders one route at build time (scripts/prerender.ts). `prerenderToNodeStream` waits for every
 * `React.lazy` route, so the HTML holds the screen, not the 'Cargando...' fallback; the tree is the
 * one main.tsx hydrates (StrictMode, router, App).
 */
export async function render(url: string): Promise<Prerendered> {
  const sheet = new ServerStyleSheet();
  try {
    const { prelude } = await prerenderToNodeStream(
      sheet.collectStyles(
        <StrictMode>
          <StaticRouter location={url}>
            <App />
          </StaticRouter>
        </StrictMode>,
      ),
    );
    const chunks: Buffer[] = [];
    for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
    const recorded = (globalThis as { __prerenderModules?: Set<string> }).__prerenderModules;
    return {
      html: Buffer.concat(chunks).toString('utf8'),
      styles: sheet.getStyleTags(),
      modules: [...(recorded ?? [])],
    };
  } finally {
    sheet.seal();
  }
}

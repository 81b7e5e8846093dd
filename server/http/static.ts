import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { messages } from './messages';

/** Written by scripts/prerender.ts: each prerendered route's own HTML file, and the empty shell. */
type PagesIndex = { pages: Record<string, string>; shell: string };

/** Hashed file names never change content: cache them for a year. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** HTML names the current hashed files: revalidate it on every visit. */
export const NO_CACHE = 'no-cache';
/** Other public files (favicon): their names are not hashed. */
const SHORT = 'public, max-age=3600';

function readPages(root: string): PagesIndex {
  const file = path.join(root, 'pages.json');
  if (!existsSync(file)) return { pages: { '/': 'index.html' }, shell: 'index.html' };
  const index = JSON.parse(readFileSync(file, 'utf8')) as PagesIndex;
  return { pages: index.pages, shell: index.shell };
}

/** '/login/' and '/login?x' are '/login'. */
function routeOf(url: string): string {
  const pathname = url.split(/[?#]/, 1)[0] ?? '/';
  return pathname.replace(/\/+$/, '') || '/';
}

/**
 * Serves the built app (dist/): hashed /assets/* as immutable, precompressed brotli or gzip when the
 * client accepts it (the build writes .br and .gz next to each file), a missing asset as a 404
 * (never the app shell), each prerendered route's own HTML and, for any other route, the empty
 * shell that the client renders. Does nothing when there is no build.
 */
export async function serveApp(app: FastifyInstance, staticDir: string): Promise<void> {
  const root = path.resolve(staticDir);
  if (!existsSync(path.join(root, 'index.html'))) return;
  const { pages, shell } = readPages(root);

  // /assets/*: its own scope, so a miss answers its own 404 instead of reaching the pages below.
  await app.register(
    async (assets) => {
      assets.setNotFoundHandler((_request, reply) =>
        reply.status(404).send({ success: false, message: messages.notFound }),
      );
      await assets.register(fastifyStatic, {
        root: path.join(root, 'assets'),
        preCompressed: true,
        decorateReply: false,
        index: false,
        cacheControl: false,
        setHeaders: (reply: FastifyReply) => reply.header('cache-control', IMMUTABLE),
      });
    },
    { prefix: '/assets' },
  );

  // The rest of dist/: public files (favicon) as routes, and reply.sendFile for the pages.
  await app.register(fastifyStatic, {
    root,
    preCompressed: true,
    wildcard: false,
    index: false,
    cacheControl: false,
    globIgnore: ['assets/**', '**/*.html', '**/*.br', '**/*.gz', 'pages.json'],
    // `file` is the one sent: login.html.br for a brotli client.
    setHeaders: (reply: FastifyReply, file: string) =>
      reply.header('cache-control', /\.html(?:\.br|\.gz)?$/.test(file) ? NO_CACHE : SHORT),
  });

  const page = (url: string) => pages[routeOf(url)] ?? shell;
  app.get('/', (request, reply) => reply.sendFile(page(request.url)));
  app.get('/*', (request, reply) => {
    if (request.url.startsWith('/api')) return reply.callNotFound();
    return reply.sendFile(page(request.url));
  });
}

/**
 * Build step 3 of 3 (`npm run build`): after `vite build` (the client, dist/) and `vite build --ssr
 * src/entry-server.tsx` (dist-ssr/), writes each prerendered route's own HTML file:
 *
 *   /               dist/index.html          the landing page, no JavaScript (plain links only)
 *   /login, /tyc, /onboarding, /recuperar-pin   dist/<route>.html, hydrated by main.tsx
 *   anything else   dist/shell.html          an empty root, rendered on the client
 *
 * and dist/pages.json (route -> file) for the server (server/http/static.ts). Each route renders in
 * a fresh Node process, so the modules its render loaded (recorded by the SSR build) are exactly
 * the lazy chunks it needs: its HTML modulepreloads them from dist/.vite/manifest.json, and the
 * browser fetches them in parallel with the entry instead of one after the other.
 *
 *   npx tsx scripts/prerender.ts [--dist dist] [--ssr dist-ssr]
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Prerendered } from '../src/entry-server';

const run = promisify(execFile);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The routes whose first screen is prerendered; `static` ones ship with no JavaScript at all. */
export const PRERENDERED: readonly { route: string; file: string; static?: boolean }[] = [
  { route: '/', file: 'index.html', static: true },
  { route: '/login', file: 'login.html' },
  { route: '/tyc', file: 'tyc.html' },
  { route: '/onboarding', file: 'onboarding.html' },
  { route: '/recuperar-pin', file: 'recuperar-pin.html' },
];
export const SHELL_FILE = 'shell.html';
export const PAGES_FILE = 'pages.json';

export type PagesIndex = { pages: Record<string, string>; shell: string };

type ManifestChunk = { file: string; imports?: string[]; isEntry?: boolean; src?: string };
type Manifest = Record<string, ManifestChunk>;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return path.resolve(root, i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback);
}

/** The chunk files a set of manifest keys needs, with their static imports, transitively. */
export function chunkClosure(manifest: Manifest, keys: Iterable<string>): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    files.add(chunk.file);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  for (const key of keys) visit(key);
  return [...files];
}

/** Renders one route in its own Node process (fresh module cache: a clean record of modules). */
async function renderInChild(ssrEntry: string, route: string): Promise<Prerendered> {
  const code = `import(${JSON.stringify(pathToFileURL(ssrEntry).href)}).then((m) => m.render(${JSON.stringify(route)})).then((r) => process.stdout.write(JSON.stringify(r)))`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', code], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout) as Prerendered;
}

const preloadTag = (file: string) => `<link rel="modulepreload" crossorigin href="/${file}">`;

/** The template with the route's styles and preloads in <head> and its markup in #root. */
export function pageHtml(
  template: string,
  page: { html: string; styles: string; preloads: string[]; static: boolean },
): string {
  let html = template;
  if (page.static) {
    // No JavaScript: no entry script, no preloads, and no 'turn JavaScript on' notice.
    html = html
      .replace(/\s*<script type="module"[^>]*><\/script>/g, '')
      .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
      .replace(/\s*<noscript>[\s\S]*?<\/noscript>/, '');
  }
  const head = [...page.preloads.map(preloadTag), page.styles].filter(Boolean).join('\n    ');
  if (head) html = html.replace('</head>', `  ${head}\n  </head>`);
  const root = '<div id="root"></div>';
  if (!html.includes(root)) throw new Error(`the template has no ${root}`);
  return html.replace(root, `<div id="root">${page.html}</div>`);
}

export async function main(): Promise<void> {
  const dist = arg('dist', 'dist');
  const ssrEntry = path.join(arg('ssr', 'dist-ssr'), 'entry-server.js');
  // dist/index.html is the template right after `vite build`; once prerendered it is the landing
  // page and the untouched template lives on as the shell.
  const prerendered = existsSync(path.join(dist, PAGES_FILE));
  const template = readFileSync(path.join(dist, prerendered ? SHELL_FILE : 'index.html'), 'utf8');
  const manifest = JSON.parse(
    readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'),
  ) as Manifest;
  const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
  if (!entryKey) throw new Error('the client manifest has no entry');
  // Already in the template: the entry and its static imports.
  const inTemplate = new Set(chunkClosure(manifest, [entryKey]));

  writeFileSync(path.join(dist, SHELL_FILE), template);
  const rendered = await Promise.all(
    PRERENDERED.map(async (p) => ({ ...p, result: await renderInChild(ssrEntry, p.route) })),
  );
  const pages: Record<string, string> = {};
  for (const { route, file, static: isStatic = false, result } of rendered) {
    const preloads = isStatic
      ? []
      : chunkClosure(manifest, result.modules).filter((f) => !inTemplate.has(f));
    writeFileSync(
      path.join(dist, file),
      pageHtml(template, { html: result.html, styles: result.styles, preloads, static: isStatic }),
    );
    pages[route] = file;
    console.log(
      `prerender: ${route.padEnd(15)} -> ${file.padEnd(19)} ${String(result.html.length).padStart(6)} B of HTML, ` +
        (isStatic ? 'no JavaScript' : `${preloads.length} route chunks modulepreloaded`),
    );
  }
  const index: PagesIndex = { pages, shell: SHELL_FILE };
  writeFileSync(path.join(dist, PAGES_FILE), JSON.stringify(index, null, 2) + '\n');
  console.log(`prerender: other routes -> ${SHELL_FILE} (empty root)`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main()
    .then(() => {
      if (process.argv.includes('--clean')) rmSync(arg('ssr', 'dist-ssr'), { recursive: true });
    })
    .catch((err: unknown) => {
      console.error(err instanceof Error ? (err.stack ?? err.message) : err);
      process.exit(1);
    });
}

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressDir } from '../../scripts/compress';
import { messages } from '../../server/http/messages';
import { IMMUTABLE, NO_CACHE } from '../../server/http/static';
import { createTestApp, type TestApp } from './helpers';

/**
 * The built app as the server serves it: a dist/ shaped like `npm run build` leaves it (pages.json,
 * one HTML file per prerendered route, the shell, hashed assets with .br/.gz from scripts/compress.ts).
 */
let dist: string;
let t: TestApp;
const js = `export const answer = ${JSON.stringify('x'.repeat(4000))};\n`;
const html = (name: string) =>
  `<!doctype html><html><body><div id="root">${name}</div></body></html>`;

beforeAll(async () => {
  dist = mkdtempSync(path.join(tmpdir(), 'static-test-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'assets', 'entry-AbC123.js'), js);
  writeFileSync(path.join(dist, 'index.html'), html('landing'));
  writeFileSync(path.join(dist, 'login.html'), html('login'));
  writeFileSync(path.join(dist, 'shell.html'), html(''));
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(
    path.join(dist, 'pages.json'),
    JSON.stringify({ pages: { '/': 'index.html', '/login': 'login.html' }, shell: 'shell.html' }),
  );
  compressDir(dist);
  t = await createTestApp({ env: { STATIC_DIR: dist } });
});

afterAll(async () => {
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: encoding === undefined ? {} : { 'accept-encoding': encoding },
  });

describe('precompressed hashed assets', () => {
  it('sends the brotli file to a client that accepts br, immutable for a year', async () => {
    const res = await get('/assets/entry-AbC123.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(res.rawPayload.length).toBeLessThan(js.length / 4);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(js);
  });

  it('sends the gzip file to a client that accepts only gzip', async () => {
    const res = await get('/assets/entry-AbC123.js', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString()).toBe(js);
  });

  it('sends the plain file to a client that accepts no encoding', async () => {
    const res = await get('/assets/entry-AbC123.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(js);
  });

  it('answers a missing asset with 404 and the Spanish JSON error, never the app shell', async () => {
    for (const url of ['/assets/entry-Old999.js', '/assets/nested/missing.css', '/assets/']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/application\/json/);
      expect(res.json(), url).toEqual({ success: false, message: messages.notFound });
    }
  });
});

describe('pages', () => {
  it.each([
    ['/', 'landing'],
    ['/login', 'login'],
    ['/login/', 'login'],
    ['/login?from=home', 'login'],
    ['/dashboard', ''],
    ['/face-login', ''],
    ['/no/such/page', ''],
  ])('%s gets its own HTML (%j), revalidated on every visit', async (url, root) => {
    const res = await get(url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe(NO_CACHE);
    expect(res.body).toBe(html(root));
  });

  it('sends the page precompressed too', async () => {
    const res = await get('/login', 'br');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe(NO_CACHE);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(html('login'));
  });

  it('serves public files, and keeps /api misses as JSON 404', async () => {
    const icon = await get('/favicon.svg');
    expect(icon.statusCode).toBe(200);
    expect(icon.body).toBe(readFileSync(path.join(dist, 'favicon.svg'), 'utf8'));
    const api = await get('/api/nope');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ success: false, message: messages.notFound });
  });
});

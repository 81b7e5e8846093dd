import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createServer as createNetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';
import { insightPaths } from '../../contract/insight';
import { useTestApp } from './helpers';

/**
 * `npm run dev` (issue 43 item 11): the page is served by Vite and its /api calls go through
 * Vite's proxy (vite.config.ts) to the API. The API's same-origin checks (journey insight's,
 * the back office's) compare the Origin the browser sends with the host the request was sent to;
 * the proxy must keep that host, or every insight batch is refused (403).
 */
const h = useTestApp();
let vite: ViteDevServer;
let webPort: number;

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createNetServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/** A request as the page on Vite's origin sends it. */
function fromPage(
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const headers: Record<string, string> = {
    'sec-fetch-site': 'same-origin',
    ...(method === 'POST'
      ? { origin: `http://localhost:${webPort}`, 'content-type': 'application/json' }
      : {}),
  };
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: 'localhost', port: webPort, path: url, method, headers },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

beforeAll(async () => {
  await h.t.app.listen({ port: 0, host: '127.0.0.1' });
  const apiPort = (h.t.app.server.address() as AddressInfo).port;
  webPort = await freePort();
  const before = process.env.API_PORT;
  process.env.API_PORT = String(apiPort); // read by vite.config.ts for its proxy's target
  try {
    vite = await createServer({
      configFile: path.resolve('vite.config.ts'),
      logLevel: 'silent',
      server: { port: webPort, strictPort: true, hmr: false, watch: null },
      optimizeDeps: { noDiscovery: true, include: [] },
    });
  } finally {
    if (before === undefined) delete process.env.API_PORT;
    else process.env.API_PORT = before;
  }
  await vite.listen();
}, 60_000);

afterAll(async () => {
  await vite?.close();
});

describe("npm run dev: the API behind Vite's proxy", () => {
  it("takes the page's journey-insight batch (the proxy keeps the host the page called)", async () => {
    const token = await fromPage('GET', insightPaths.token);
    expect(token.status).toBe(200);
    const batch = {
      token: (token.json as { token: string }).token,
      context: { device: 'mobile', browser: 'chrome', network: '4g' },
      events: [
        {
          journey: '0b5c0f7e-9d1a-4c3b-8a2e-000000000001',
          seq: 0,
          flow: 'login',
          step: 'login',
          outcome: 'entered',
          attempt: 1,
        },
      ],
    };
    const sent = await fromPage('POST', insightPaths.events, batch);
    expect(sent).toMatchObject({ status: 200 });
  });
});

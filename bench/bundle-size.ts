/**
 * JavaScript a patient downloads for `/` and `/login`, measured in a real browser against the real
 * server serving dist/ (run `npm run build` first; this builds nothing).
 *
 *   npx tsx bench/bundle-size.ts
 *
 * For each page, in a fresh browser context (cold cache): every JavaScript response, raw and
 * gzip -9 sizes, the gzip total in kB (1000 B) and KiB (1024 B) against the target (at most 110 KB,
 * judged in kB, the stricter unit), and whether any loaded chunk carries camera, KYC or kiosk code.
 * It reports; it does not fail on a budget overrun (the exit code is 0 unless it could not measure).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TARGET_KB = 110;
const PAGES = ['/', '/login'] as const;

/** Strings that only camera, KYC, liveness or kiosk code contains. */
const CODE_MARKERS = [
  'getUserMedia',
  'mediaDevices',
  'enumerateDevices',
  'start-kyc',
  'scan-id',
  'liveness',
  'kiosk',
  'toDataURL',
] as const;
/** Route names: the lazy route table must name them, so a hit here alone is not camera code. */
const ROUTE_MARKERS = ['face-login'] as const;
/** Chunk file names of the camera / KYC / kiosk flows (route-level code splitting). */
const HEAVY_CHUNK = /(FaceLogin|Onboarding|Kyc|Liveness|Selfie|Camera|Kiosk)/i;

export type JsFile = {
  url: string;
  file: string;
  raw: number;
  gzip: number;
  markers: string[];
  routeMarkers: string[];
};
export type PageReport = {
  page: string;
  files: JsFile[];
  totalRaw: number;
  totalGzip: number;
  withinTarget: boolean;
  cameraCode: boolean;
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

async function waitForServer(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.once('exit', () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error('the server exited before answering');
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer ${url} within ${timeoutMs} ms`);
}

async function startServer(): Promise<{ baseURL: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-bundle-'));
  const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
  const child = spawn(tsx, ['server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      DEMO_PATIENT: 'false',
      LOG_LEVEL: 'warn',
      STATIC_DIR: 'dist',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const baseURL = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForServer(`${baseURL}/api/auth/session`, child, 120_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { baseURL, stop };
}

async function measure(baseURL: string): Promise<PageReport[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const reports: PageReport[] = [];
  try {
    for (const pagePath of PAGES) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const pending: Promise<JsFile | null>[] = [];
      page.on('response', (response) => {
        const type = response.headers()['content-type'] ?? '';
        const isJs = response.request().resourceType() === 'script' || /javascript/.test(type);
        if (!isJs) return;
        pending.push(
          response.body().then(
            (body) => {
              const text = body.toString('utf8');
              const url = new URL(response.url());
              return {
                url: url.pathname,
                file: path.basename(url.pathname),
                raw: body.length,
                gzip: gzipSync(body, { level: 9 }).length,
                markers: CODE_MARKERS.filter((m) => text.includes(m)),
                routeMarkers: ROUTE_MARKERS.filter((m) => text.includes(m)),
              };
            },
            () => null,
          ),
        );
      });
      await page.goto(baseURL + pagePath, { waitUntil: 'networkidle' });
      // The lazy route chunk has rendered when the page's heading is there.
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle');
      const files = (await Promise.all(pending)).filter((f): f is JsFile => f !== null);
      files.sort((a, b) => b.gzip - a.gzip);
      const totalRaw = files.reduce((n, f) => n + f.raw, 0);
      const totalGzip = files.reduce((n, f) => n + f.gzip, 0);
      reports.push({
        page: pagePath,
        files,
        totalRaw,
        totalGzip,
        withinTarget: totalGzip <= TARGET_KB * 1000,
        cameraCode: files.some((f) => f.markers.length > 0 || HEAVY_CHUNK.test(f.file)),
      });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  return reports;
}

const kB = (n: number) => (n / 1000).toFixed(2);
const KiB = (n: number) => (n / 1024).toFixed(2);

export function printReports(reports: PageReport[]): void {
  for (const r of reports) {
    console.log(`\nPage ${r.page}: ${r.files.length} JavaScript files`);
    console.log(`  ${'file'.padEnd(44)} ${'raw B'.padStart(9)} ${'gzip-9 B'.padStart(9)}  markers`);
    for (const f of r.files) {
      const marks =
        [...f.markers, ...f.routeMarkers.map((m) => `${m} (route name)`)].join(', ') || '-';
      console.log(
        `  ${f.file.padEnd(44)} ${String(f.raw).padStart(9)} ${String(f.gzip).padStart(9)}  ${marks}`,
      );
    }
    console.log(
      `  total: raw ${kB(r.totalRaw)} kB; gzip ${kB(r.totalGzip)} kB = ${KiB(r.totalGzip)} KiB; ` +
        `target <= ${TARGET_KB} KB: ${r.withinTarget ? 'WITHIN' : 'OVER'} ` +
        `(${r.withinTarget ? 'margin' : 'over by'} ${kB(Math.abs(TARGET_KB * 1000 - r.totalGzip))} kB)`,
    );
    const heavy = r.files.filter((f) => f.markers.length > 0 || HEAVY_CHUNK.test(f.file));
    console.log(
      heavy.length === 0
        ? '  camera/KYC/kiosk code loaded: NO'
        : `  camera/KYC/kiosk code loaded: YES in ${heavy.map((f) => `${f.file} [${f.markers.join(', ')}]`).join('; ')}`,
    );
  }
  const worst = reports.reduce((a, b) => (b.totalGzip > a.totalGzip ? b : a));
  console.log(
    `\nSummary: largest page ${worst.page} loads ${kB(worst.totalGzip)} kB gzip (${KiB(worst.totalGzip)} KiB); ` +
      `target ${TARGET_KB} KB: ${reports.every((r) => r.withinTarget) ? 'met' : 'NOT met'}; ` +
      `camera/KYC/kiosk code on / or /login: ${reports.some((r) => r.cameraCode) ? 'YES' : 'none'}`,
  );
}

export async function main(): Promise<PageReport[]> {
  if (!existsSync(path.join(root, 'dist', 'index.html'))) {
    throw new Error(
      'dist/index.html is missing: run `npm run build` first (this bench builds nothing).',
    );
  }
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`${CHROMIUM_PATH} is missing: bash scripts/ensure-system-deps.sh`);
  console.log(
    'bundle-size: JavaScript loaded by / and /login (dist/, real server, Debian Chromium)',
  );
  const server = await startServer();
  try {
    const reports = await measure(server.baseURL);
    printReports(reports);
    return reports;
  } finally {
    await server.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}

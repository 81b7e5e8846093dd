/**
 * JavaScript a patient downloads for `/` and `/login`, measured in a real browser against the real
 * server serving dist/ (run `npm run build` first; this builds nothing).
 *
 *   npx tsx bench/bundle-size.ts
 *
 * For each page, in a fresh browser context (cold cache): every JavaScript response, raw and
 * gzip -9 sizes, the gzip total in kB (1000 B) and KiB (1024 B) against the page's target (`/login`
 * at most 120 KB, judged in kB, the stricter unit; `/` none at all: it is prerendered and static),
 * and whether any loaded chunk carries camera, KYC or kiosk code.
 * It reports; it does not fail on a budget overrun (the exit code is 0 unless it could not measure).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium';
import { requireBuild, startServer } from './_server';

/** gzip kB per page (issue 12): the landing page ships as HTML only. */
export const TARGETS_KB: Record<string, number> = { '/': 0, '/login': 120 };
const PAGES = Object.keys(TARGETS_KB);

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
// Case-sensitive PascalCase or a whole lower-case word: a content hash such as 'chunk-6KYCQHYJ'
// (react-router's own chunk name) is not KYC code.
const HEAVY_CHUNK =
  /(?:FaceLogin|Onboarding|Kyc|Liveness|Selfie|Camera|Kiosk)|(?:^|[-_.])(?:face-login|onboarding|kyc|liveness|selfie|camera|kiosk)(?:[-_.]|$)/;

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
      // The lazy route chunk has rendered (or hydrated) when the page's heading is there.
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
        withinTarget: totalGzip <= TARGETS_KB[pagePath]! * 1000,
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
        `target <= ${TARGETS_KB[r.page]} KB: ${r.withinTarget ? 'WITHIN' : 'OVER'} ` +
        `(${r.withinTarget ? 'margin' : 'over by'} ${kB(Math.abs(TARGETS_KB[r.page]! * 1000 - r.totalGzip))} kB)`,
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
      `targets (${PAGES.map((p) => `${p} <= ${TARGETS_KB[p]} KB`).join(', ')}): ${reports.every((r) => r.withinTarget) ? 'met' : 'NOT met'}; ` +
      `camera/KYC/kiosk code on / or /login: ${reports.some((r) => r.cameraCode) ? 'YES' : 'none'}`,
  );
}

export async function main(): Promise<PageReport[]> {
  requireBuild();
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`${CHROMIUM_PATH} is missing: bash scripts/ensure-system-deps.sh`);
  console.log(
    'bundle-size: JavaScript loaded by / and /login (dist/, real server, Debian Chromium)',
  );
  const server = await startServer('bundle');
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

/**
 * Lighthouse on `/` and `/login` as a patient on a slow phone sees them: the real server serving
 * dist/ (run `npm run build` first), Debian's Chromium, Lighthouse's default mobile profile and
 * APPLIED throttling (devtools): Regular 3G, 1125 ms latency, 630 kbps down and up, CPU 10x slower
 * (simulated throttling misjudges prerendered pages with modulepreload).
 *
 *   npx tsx bench/lighthouse.ts [runs=3]
 *
 * Runs interleave the pages (the CPU available varies between runs on a shared machine) and a run
 * that ends in a Lighthouse runtime error (NO_NAVSTART on a loaded machine) is repeated. Prints each
 * run and the medians of LCP, performance score and CLS against the targets. It reports; it does
 * not fail on a missed target (exit code 0 unless it could not measure).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_PATH } from '../e2e/chromium';
import { requireBuild, startServer } from './_server';

export const THROTTLING = {
  requestLatencyMs: 1125,
  downloadThroughputKbps: 630,
  uploadThroughputKbps: 630,
  cpuSlowdownMultiplier: 10,
} as const;

/** Targets of issue 12. */
export const TARGETS: Record<string, { lcpMs: number }> = {
  '/': { lcpMs: 2000 },
  '/login': { lcpMs: 2500 },
};
export const SCORE_TARGET = 95;
export const CLS_TARGET = 0.02;
const PAGES = Object.keys(TARGETS);
const MAX_ATTEMPTS = 4;

export type Run = { page: string; lcpMs: number; score: number; cls: number; fcpMs: number };

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

async function audit(url: string, port: number): Promise<Run | string> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    throttlingMethod: 'devtools',
    throttling: { ...THROTTLING },
  });
  const lhr = result?.lhr;
  if (!lhr) return 'no result';
  if (lhr.runtimeError) return lhr.runtimeError.code;
  const num = (id: string) => lhr.audits[id]?.numericValue;
  const lcp = num('largest-contentful-paint');
  const cls = num('cumulative-layout-shift');
  const fcp = num('first-contentful-paint');
  const score = lhr.categories.performance?.score;
  if (lcp === undefined || cls === undefined || fcp === undefined || score == null)
    return 'missing metrics';
  return { page: new URL(url).pathname, lcpMs: lcp, cls, fcpMs: fcp, score: score * 100 };
}

export async function main(runs = Number(process.argv[2] ?? 3)): Promise<Run[]> {
  requireBuild();
  console.log(
    `lighthouse: ${PAGES.join(' and ')}, ${runs} runs each, mobile profile, applied throttling ` +
      `(latency ${THROTTLING.requestLatencyMs} ms, ${THROTTLING.downloadThroughputKbps} kbps, CPU ${THROTTLING.cpuSlowdownMultiplier}x)`,
  );
  const server = await startServer('lighthouse');
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
  });
  const results: Run[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      for (const page of PAGES) {
        for (let attempt = 1; ; attempt++) {
          const r = await audit(server.baseURL + page, chrome.port);
          if (typeof r !== 'string') {
            results.push(r);
            console.log(
              `  run ${i + 1} ${page.padEnd(7)} LCP ${(r.lcpMs / 1000).toFixed(2)} s  FCP ${(r.fcpMs / 1000).toFixed(2)} s  ` +
                `score ${r.score.toFixed(0)}  CLS ${r.cls.toFixed(3)}`,
            );
            break;
          }
          console.log(`  run ${i + 1} ${page}: ${r} (attempt ${attempt})`);
          if (attempt >= MAX_ATTEMPTS) throw new Error(`${page}: ${r} ${attempt} times`);
        }
      }
    }
  } finally {
    await chrome.kill();
    await server.stop();
  }
  console.log('\nmedians:');
  let allMet = true;
  for (const page of PAGES) {
    const mine = results.filter((r) => r.page === page);
    const lcp = median(mine.map((r) => r.lcpMs));
    const score = median(mine.map((r) => r.score));
    const cls = median(mine.map((r) => r.cls));
    const lcpOk = lcp <= TARGETS[page]!.lcpMs;
    const scoreOk = score >= SCORE_TARGET;
    const clsOk = cls <= CLS_TARGET;
    allMet &&= lcpOk && scoreOk && clsOk;
    const mark = (ok: boolean) => (ok ? 'met' : 'MISSED');
    console.log(
      `  ${page.padEnd(7)} LCP ${(lcp / 1000).toFixed(2)} s (target <= ${(TARGETS[page]!.lcpMs / 1000).toFixed(1)} s: ${mark(lcpOk)}); ` +
        `score ${score.toFixed(0)} (>= ${SCORE_TARGET}: ${mark(scoreOk)}); CLS ${cls.toFixed(3)} (<= ${CLS_TARGET}: ${mark(clsOk)})`,
    );
  }
  console.log(`Summary: Lighthouse targets ${allMet ? 'met' : 'NOT all met'}`);
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}

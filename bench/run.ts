/**
 * Runs every bench in bench/ (bundle-size.ts, lighthouse.ts, identity-*.ts, ...), one child process each, in
 * sequence, so a crash in one does not stop the others. `npm run bench` or `npx tsx bench/run.ts`.
 * Exit code 1 when any bench exited non-zero, after all have run.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const self = path.basename(fileURLToPath(import.meta.url));

/** The page benches first (they need only dist/: `npm run build`), then the rest in name order. */
const FIRST = ['bundle-size.ts', 'lighthouse.ts'];

export function discoverBenches(dir = here): string[] {
  const rank = (f: string) => (FIRST.includes(f) ? FIRST.indexOf(f) : FIRST.length);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && f !== self && !f.startsWith('_'))
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

export function main(): number {
  const benches = discoverBenches();
  const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
  const results: { bench: string; status: number | null; signal: string | null; ms: number }[] = [];
  for (const bench of benches) {
    console.log(`\n=== bench/${bench} ===`);
    const started = Date.now();
    const r = spawnSync(tsx, [path.join('bench', bench)], {
      cwd: root,
      stdio: 'inherit',
      env: process.env,
    });
    results.push({ bench, status: r.status, signal: r.signal, ms: Date.now() - started });
    if (r.error) console.error(`bench/${bench}: ${r.error.message}`);
  }
  console.log('\n=== benches ===');
  for (const r of results) {
    const outcome = r.status === 0 ? 'ok' : r.signal ? `killed (${r.signal})` : `exit ${r.status}`;
    console.log(`  ${r.bench.padEnd(32)} ${outcome.padEnd(14)} ${(r.ms / 1000).toFixed(1)} s`);
  }
  return results.every((r) => r.status === 0) ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  process.exitCode = main();
}

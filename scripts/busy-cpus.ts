/**
 * Busy CPU loops beside a test run, to prove the suite does not depend on an idle machine
 * (issue 32): `npx tsx scripts/busy-cpus.ts [loops=2] [minutes=40]`, e.g.
 *   npx tsx scripts/busy-cpus.ts 2 40 & npm test; kill %1
 * Each loop is a worker thread spinning until the time is up (bounded: it always ends), or until
 * the process is signalled.
 */
import { Worker } from 'node:worker_threads';

const loops = Number(process.argv[2] ?? 2);
const minutes = Number(process.argv[3] ?? 40);
if (!Number.isInteger(loops) || loops < 1 || loops > 16 || !(minutes > 0 && minutes <= 180)) {
  console.error('usage: busy-cpus.ts [loops 1-16] [minutes, at most 180]');
  process.exit(2);
}
const until = Date.now() + minutes * 60_000;
const spin = `const until = ${until}; let x = 0; while (Date.now() < until) { for (let i = 0; i < 1e6; i++) x += i; }`;
for (let i = 0; i < loops; i++) new Worker(spin, { eval: true });
console.log(`busy-cpus: ${loops} loop(s) until ${new Date(until).toISOString()}`);

/**
 * The Playwright webServer command: a fresh data folder, the suite's patients created with the
 * operator command, then the REAL server (server/main.ts) serving dist/ and /api on one port.
 *
 * Seeding happens here and not in a Playwright globalSetup because Playwright starts webServer
 * BEFORE globalSetup, and PGlite cannot be shared by two processes (see e2e/patients.ts).
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createPatient, SEED_PATIENTS } from './patients';

const dataDir = process.env.DATA_DIR;
if (!dataDir || !path.resolve(dataDir).includes(`${path.sep}.e2e-data${path.sep}`)) {
  console.error(
    `e2e/server.ts: refusing to wipe DATA_DIR=${dataDir ?? '(unset)'}; it must live under .e2e-data/`,
  );
  process.exit(2);
}

rmSync(dataDir, { recursive: true, force: true });
removeStaleRuns(path.dirname(path.resolve(dataDir)));
const started = Date.now();
for (const [name, patient] of Object.entries(SEED_PATIENTS)) {
  const result = createPatient(patient, dataDir);
  if (!result.ok || !result.created)
    throw new Error(`seeding ${name} failed: ${JSON.stringify(result)}`);
}
console.log(
  `e2e: seeded ${Object.keys(SEED_PATIENTS).length} patients in ${Date.now() - started} ms into ${dataDir}`,
);

await import('../server/main');

/** Data folders of earlier runs (`run-<runner pid>`) whose runner is gone. */
function removeStaleRuns(parent: string): void {
  mkdirSync(parent, { recursive: true });
  for (const name of readdirSync(parent)) {
    const pid = /^run-(\d+)$/.exec(name)?.[1];
    if (!pid || isAlive(Number(pid))) continue;
    rmSync(path.join(parent, name), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

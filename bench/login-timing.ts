/**
 * Login over real HTTP semantics (app.inject on an in-memory PGlite, Argon2id at 19 MiB/t=2/p=1):
 * does an unknown document number answer as slowly as a wrong PIN, and how long does a right PIN
 * take? Prints p50/p95 in ms for each; no budget is enforced (shared, noisy machine).
 *
 *   npx tsx bench/login-timing.ts
 */
import { pathToFileURL } from 'node:url';
import { benchApp, pct } from './_api';
import { upsertPatient } from '../server/patients/service';

const N = Number(process.env.BENCH_LOGIN_N ?? 40);

export async function main(): Promise<void> {
  const { app, ctx, close } = await benchApp({ LOGIN_IP_MAX_FAILURES: '100000' });
  // One patient per sample, so no account reaches the progressive delay.
  for (let i = 0; i < N; i++) {
    await upsertPatient(ctx, {
      numero_documento: String(2_000_000 + i),
      pin: '739154',
      nombre: 'B',
      apellido: 'B',
    });
  }
  const time = async (body: object) => {
    const t0 = performance.now();
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: body });
    return { ms: performance.now() - t0, status: res.statusCode };
  };
  const runs = { right: [] as number[], wrongPin: [] as number[], unknown: [] as number[] };
  for (let i = 0; i < N; i++) {
    // Interleaved, so machine noise hits every kind alike.
    const w = await time({ numero_documento: String(2_000_000 + i), pin: '000111' });
    const u = await time({ numero_documento: String(3_000_000 + i), pin: '000111' });
    const r = await time({ numero_documento: String(2_000_000 + i), pin: '739154' });
    if (w.status !== 401 || u.status !== 401 || r.status !== 200)
      throw new Error('unexpected status');
    runs.wrongPin.push(w.ms);
    runs.unknown.push(u.ms);
    runs.right.push(r.ms);
  }
  console.log(`login-timing: ${N} samples each, in-process (app.inject), Argon2id 19 MiB t=2 p=1`);
  for (const [name, xs] of Object.entries(runs)) {
    console.log(
      `  ${name.padEnd(9)} p50 ${pct(xs, 50).toFixed(1)} ms  p95 ${pct(xs, 95).toFixed(1)} ms`,
    );
  }
  const gap = pct(runs.unknown, 50) - pct(runs.wrongPin, 50);
  console.log(`  unknown document vs wrong PIN, p50 difference: ${gap.toFixed(1)} ms`);
  await close();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}

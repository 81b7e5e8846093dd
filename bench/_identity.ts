/** Shared helpers of the identity benches (not a bench itself: the runner skips files starting with '_'). */
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { openDb, type Db } from '../server/db/client';
import { loadIdentityConfig, type IdentityConfig } from '../server/identity/config';
import {
  createIdentityEngine,
  type IdentityEngine,
  type IdentityLog,
} from '../server/identity/engine';

export type Bench = {
  engine: IdentityEngine;
  db: Db;
  config: IdentityConfig;
  clock: { now: number };
  close(): Promise<void>;
};

export async function startBench(
  env: Record<string, string> = {},
  ocr = false,
  log?: IdentityLog,
): Promise<Bench> {
  const config = loadIdentityConfig({ ...process.env, ...env });
  const clock = { now: Date.now() };
  const t0 = performance.now();
  const [db, engine] = await Promise.all([
    openDb({ memory: true }),
    createIdentityEngine(config, { ocr, now: () => clock.now, ...(log ? { log } : {}) }),
  ]);
  console.log(
    `engine ready: ${config.poolSize} face worker(s) on ${os.cpus().length} core(s), ${Math.round(performance.now() - t0)} ms; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  return {
    engine,
    db,
    config,
    clock,
    async close() {
      await engine.close();
      await db.close();
    },
  };
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return Number.NaN;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

export function summary(values: number[]) {
  return {
    n: values.length,
    p50: Math.round(percentile(values, 50)),
    p95: Math.round(percentile(values, 95)),
    max: Math.round(Math.max(...values)),
  };
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

/** Runs main() when the file is executed directly (npx tsx bench/identity-*.ts). */
export function runIfMain(url: string, main: () => Promise<unknown>) {
  if (process.argv[1] && url === pathToFileURL(path.resolve(process.argv[1])).href) {
    main().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  }
}

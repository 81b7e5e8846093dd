/** Shared helpers of the identity benches (not a bench itself: the runner skips files starting with '_'). */
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import sharp from 'sharp';
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
  /** 'PGlite (in memory)' or 'PostgreSQL'. */
  dbKind: string;
  close(): Promise<void>;
};

/**
 * The bench's database: PGlite in memory by default; with a PostgreSQL URL (bench/_process.ts
 * `benchPostgres()`: BENCH_DATABASE_URL, TEST_DATABASE_URL or a throwaway cluster) a fresh schema on
 * it, dropped on close, so that no run meets another run's frames (they would be replays).
 */
export async function benchDb(
  url?: string,
): Promise<{ db: Db; kind: string; close(): Promise<void> }> {
  if (!url) {
    const db = await openDb({ memory: true });
    return { db, kind: 'PGlite (in memory)', close: () => db.close() };
  }
  // The test helpers load the whole app: only when PostgreSQL is asked for.
  const { createTestSchema } = await import('../tests/server/helpers');
  const schema = await createTestSchema(url, 'bench');
  const db = await openDb({ databaseUrl: schema.url });
  return {
    db,
    kind: 'PostgreSQL',
    async close() {
      await db.close();
      await schema.drop();
    },
  };
}

export async function startBench(
  env: Record<string, string> = {},
  ocr = false,
  log?: IdentityLog,
  databaseUrl?: string,
): Promise<Bench> {
  // The benches' frames blink at fixed times and carry no tags: the blink decider ('none') unless
  // the environment or the bench asks for the challenge (issue 31).
  const config = loadIdentityConfig({
    IDENTITY_LIVENESS_CHALLENGE: 'none',
    ...process.env,
    ...env,
  });
  const clock = { now: Date.now() };
  const t0 = performance.now();
  const [database, engine] = await Promise.all([
    benchDb(databaseUrl),
    createIdentityEngine(config, { ocr, now: () => clock.now, ...(log ? { log } : {}) }),
  ]);
  console.log(
    `engine ready on ${database.kind}: ${config.poolSize} face worker(s) on ${os.cpus().length} core(s), ${Math.round(performance.now() - t0)} ms; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  return {
    engine,
    db: database.db,
    config,
    clock,
    dbKind: database.kind,
    async close() {
      await engine.close();
      await database.close();
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

/** What the kiosk sends (machines/face-login/face-login.actors.ts): a square crop of the camera frame, JPEG at 0.92. */
export async function kioskFrame(frame: Buffer): Promise<Buffer> {
  const meta = await sharp(frame).metadata();
  const side = Math.min(meta.width!, meta.height!);
  return sharp(frame)
    .extract({
      left: Math.floor((meta.width! - side) / 2),
      top: Math.floor((meta.height! - side) / 2),
      width: side,
      height: side,
    })
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** A seeded normal deviate (Box-Muller over a small LCG): synthetic galleries are reproducible. */
export function gaussian(seed: number) {
  let s = seed >>> 0 || 1;
  const u = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) + 0.5) / 4294967296;
  return () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
}

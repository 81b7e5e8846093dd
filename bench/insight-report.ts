/**
 * Journey insight's cost (issue 17; figures, not a test): seeds `count` events (default 1,000,000)
 * of synthetic journeys over 90 days (registrations that drop off along the funnel with failures,
 * PIN recoveries, kiosk attempts, the engine's decisions), then times the operator report
 * (`buildReport`, the same queries as `npm run report`: median of 3 runs over the 90 days and over
 * one week) and the HTML rendering; and the ingestion's cost per event (catalogue validation and
 * the batch insert of POST /api/insight/events, batches of 20).
 *   npx tsx bench/insight-report.ts [count=1000000] [pglite|postgres|both=both]
 * PGlite in a temporary folder; PostgreSQL: BENCH_DATABASE_URL / TEST_DATABASE_URL, else a
 * throwaway cluster (scripts/pg-test-cluster.sh), skipped when none can be had.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { insightBatch, type InsightBatch, type InsightEvent } from '../contract/insight';
import { openDb, type Db } from '../server/db/client';
import { buildReport, reportRange } from '../server/insight/report';
import { reportHtml } from '../server/insight/report-html';
import { insertBatch } from '../server/insight/store';
import { rng } from '../tests/fixtures/cedula';
import { benchDb, percentile } from './_identity';
import { benchPostgres, runIfMain } from './_process';

const DAY = 86_400_000;
const END = Date.parse('2026-11-24T12:00:00Z');
const START = END - 90 * DAY;
const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

const COLUMNS =
  'at, source, journey, seq, flow, step, outcome, error, duration_ms, attempt, device, browser, network';
type Row = unknown[];

/** Synthetic rows, journey by journey, until `count`. */
function* journeys(count: number): Generator<Row> {
  const rand = rng(17);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const uuid = () =>
    '4xxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx'.replace(/x/g, () =>
      Math.floor(rand() * 16).toString(16),
    );
  let made = 0;
  while (made < count) {
    const at = new Date(START + rand() * 90 * DAY);
    const journey = uuid();
    const ctx = [
      pick(['mobile', 'mobile', 'desktop']),
      pick(['chrome', 'safari', 'samsung']),
      pick(['4g', '3g', null]),
    ];
    let seq = 0;
    const row = (
      flow: string,
      step: string,
      outcome: string,
      error: string | null,
      ms: number | null,
      attempt = 1,
    ): Row => [at, 'browser', journey, seq++, flow, step, outcome, error, ms, attempt, ...ctx];
    const kind = rand();
    const rows: Row[] = [];
    if (kind < 0.6) {
      const steps: Array<[string, string]> = [
        ['registration', 'sendCodeFailed'],
        ['verification', 'wrongCode'],
        ['pin', 'pinInvalid'],
        ['welcome', 'unexpected'],
        ['selfie', pick(['livenessNotDetected', 'sessionExpired', 'livenessFailed'])],
        ['document', pick(['faceMismatch', 'documentRejected', 'documentNetwork'])],
        ['review', 'rejectFailed'],
        ['supplementary', 'citiesFailed'],
        ['register', 'registerFailed'],
      ];
      for (const [step, error] of steps) {
        rows.push(row('onboarding', step, 'entered', null, null));
        let attempt = 1;
        while (rand() < 0.15 && attempt < 4) {
          rows.push(
            row('onboarding', step, 'failed', error, Math.round(5000 + rand() * 60_000), attempt),
          );
          rows.push(row('onboarding', step, 'retried', null, null, attempt++));
        }
        if (rand() < 0.1) break; // gives up
        rows.push(
          row('onboarding', step, 'passed', null, Math.round(3000 + rand() * 90_000), attempt),
        );
      }
    } else if (kind < 0.75) {
      for (const [step, error] of [
        ['request', 'sendFailed'],
        ['verification', 'wrongCode'],
        ['newPin', 'saveFailed'],
      ] as const) {
        rows.push(row('recovery', step, 'entered', null, null));
        if (rand() < 0.1) rows.push(row('recovery', step, 'failed', error, 4000));
        if (rand() < 0.1) break;
        rows.push(row('recovery', step, 'passed', null, Math.round(2000 + rand() * 40_000)));
      }
    } else if (kind < 0.9) {
      for (let i = 0; i < 10; i++) {
        const ok = rand() < 0.8;
        rows.push(
          row(
            'faceLogin',
            'recognition',
            ok ? 'passed' : 'failed',
            ok ? null : 'notRecognised',
            Math.round(1500 + rand() * 6000),
            i + 1,
          ),
        );
      }
    } else {
      for (let i = 0; i < 8; i++)
        rows.push([
          at,
          'engine',
          null,
          0,
          'onboarding',
          'selfie',
          'failed',
          pick(['no_face', 'too_dark', 'time_up', 'eyes_never_closed', 'replay']),
          null,
          null,
          null,
          null,
          null,
        ]);
    }
    for (const r of rows) {
      if (made++ >= count) return;
      yield r;
    }
  }
}

async function seed(db: Db, count: number): Promise<number> {
  const t0 = performance.now();
  const per = 2000;
  let chunk: Row[] = [];
  const flush = async () => {
    if (!chunk.length) return;
    const values = chunk
      .map((_, r) => `(${Array.from({ length: 13 }, (_, c) => `$${r * 13 + c + 1}`).join(', ')})`)
      .join(', ');
    await db.query(`INSERT INTO insight_events (${COLUMNS}) VALUES ${values}`, chunk.flat());
    chunk = [];
  };
  for (const r of journeys(count)) {
    chunk.push(r);
    if (chunk.length === per) await flush();
  }
  await flush();
  await db.query('ANALYZE insight_events');
  return performance.now() - t0;
}

async function ingestion(db: Db, batches = 200): Promise<number> {
  const events: InsightEvent[] = Array.from({ length: 20 }, (_, i) => ({
    journey: '0b5c0f7e-9d1a-4c3b-8a2e-5f6d7c8b9a01',
    seq: i,
    flow: 'onboarding',
    step: 'selfie',
    outcome: i % 2 ? 'passed' : 'entered',
    attempt: 1,
    ...(i % 2 ? { durationMs: 1000 + i } : {}),
  }));
  const body = JSON.stringify({
    token: 'bench',
    context: { device: 'mobile', browser: 'chrome', network: '4g' },
    events,
  });
  const t0 = performance.now();
  for (let i = 0; i < batches; i++) {
    const parsed = insightBatch.safeParse(JSON.parse(body));
    if (!parsed.success) throw new Error('bench batch refused');
    await insertBatch(
      db,
      parsed.data as InsightBatch,
      parsed.data.events.map((e) => e.journey),
      END,
    );
  }
  return (performance.now() - t0) / (batches * 20);
}

async function measure(db: Db, kind: string, count: number): Promise<void> {
  console.log(`\n${kind}: seeding ${count.toLocaleString('en')} events ...`);
  const seedMs = await seed(db, count);
  console.log(`  seeded in ${(seedMs / 1000).toFixed(1)} s; load average ${loadavg()}`);
  for (const [name, desde, hasta] of [
    ['90 days', '2026-08-26', '2026-11-24'],
    ['one week', '2026-11-17', '2026-11-23'],
  ] as const) {
    const range = reportRange(desde, hasta)!;
    const times: number[] = [];
    let report;
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      report = await buildReport(db, range);
      times.push(performance.now() - t0);
    }
    const t1 = performance.now();
    const html = reportHtml(report!, new Date());
    const htmlMs = performance.now() - t1;
    console.log(
      `  report over ${name}: ${report!.events.toLocaleString('en')} events, queries median ${Math.round(percentile(times, 50))} ms (runs ${times.map(Math.round).join(', ')}), HTML ${Math.round(htmlMs)} ms, ${Math.round(html.length / 1024)} KiB; load average ${loadavg()}`,
    );
  }
  const perEvent = await ingestion(db);
  console.log(
    `  ingestion (validate + insert, batches of 20): ${perEvent.toFixed(3)} ms per event`,
  );
}

async function main() {
  const count = Number(process.argv[2] ?? 1_000_000);
  const which = process.argv[3] ?? 'both';
  console.log(
    `insight report bench: ${count.toLocaleString('en')} events, ${os.cpus().length} cores, load average ${loadavg()}`,
  );
  if (which !== 'postgres') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-insight-'));
    const db = await openDb({ dataDir: dir });
    try {
      await measure(db, 'PGlite (data folder)', count);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (which !== 'pglite') {
    const pg = await benchPostgres();
    if (!pg) console.log('\nPostgreSQL skipped: set BENCH_DATABASE_URL or install postgresql');
    else {
      const database = await benchDb(pg.url);
      try {
        await measure(database.db, 'PostgreSQL', count);
      } finally {
        await database.close();
        await pg.stop();
      }
    }
  }
}

runIfMain(import.meta.url, main);

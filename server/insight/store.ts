import type { EngineDecision, InsightBatch } from '../../contract/insight';
import type { Db } from '../db/client';

/**
 * The one module that writes `insight_events` (issue 17): a browser batch (validated against the
 * catalogue by the route) and the engine's decisions, each in one multi-row statement; and the
 * retention delete. Nothing but catalogue values and numbers reaches the table.
 */

const COLUMNS =
  'at, source, journey, seq, flow, step, outcome, error, duration_ms, attempt, device, browser, network';
const WIDTH = 13;

type Row = [
  Date,
  'browser' | 'engine',
  string | null,
  number,
  string,
  string,
  string,
  string | null,
  number | null,
  number | null,
  string | null,
  string | null,
  string | null,
];

async function insertRows(db: Db, rows: Row[]): Promise<void> {
  if (!rows.length) return;
  const values = rows
    .map(
      (_, r) => `(${Array.from({ length: WIDTH }, (_, c) => `$${r * WIDTH + c + 1}`).join(', ')})`,
    )
    .join(', ');
  await db.query(`INSERT INTO insight_events (${COLUMNS}) VALUES ${values}`, rows.flat());
}

/** Durations are kept to the tenth of a second: what the report shows, and no digit more. */
const tenths = (ms: number) => Math.round(ms / 100) * 100;

/**
 * A browser batch, stamped with the server's time (never the client's), each event under the
 * journey id the ingestion made for it (`journeys[i]`, never the browser's own).
 */
export function insertBatch(
  db: Db,
  batch: InsightBatch,
  journeys: string[],
  now: number,
): Promise<void> {
  const at = new Date(now);
  const { device, browser, network } = batch.context;
  return insertRows(
    db,
    batch.events.map((e, i) => [
      at,
      'browser',
      journeys[i]!,
      e.seq,
      e.flow,
      e.step,
      e.outcome,
      e.error ?? null,
      e.durationMs === undefined ? null : tenths(e.durationMs),
      e.attempt,
      device,
      browser,
      network ?? null,
    ]),
  );
}

/** The engine's decisions (no journey, no context). */
export function insertDecisions(
  db: Db,
  decisions: Array<EngineDecision & { at: number }>,
): Promise<void> {
  return insertRows(
    db,
    decisions.map((d) => [
      new Date(d.at),
      'engine',
      null,
      0,
      d.flow,
      d.step,
      d.outcome,
      d.error ?? null,
      d.durationMs === undefined ? null : Math.round(d.durationMs),
      d.attempt ?? null,
      null,
      null,
      null,
    ]),
  );
}

/** Deletes events older than the retention, in chunks (no long lock); the number deleted. */
export async function purgeExpired(db: Db, now: number, retentionMs: number): Promise<number> {
  const cutoff = new Date(now - retentionMs);
  let total = 0;
  for (;;) {
    const { rows } = await db.query<{ n: number }>(
      `WITH gone AS (
         DELETE FROM insight_events WHERE id IN (
           SELECT id FROM insight_events WHERE at < $1 ORDER BY at LIMIT 20000)
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [cutoff],
    );
    const n = rows[0]?.n ?? 0;
    total += n;
    if (n < 20000) return total;
  }
}

import { PARAGUAY_UTC_OFFSET } from '../../contract/paraguay-time';
import { LIVENESS_SIGNALS, type InsightFlow } from '../../contract/insight';
import type { Db } from '../db/client';
import { assistedReport, type AssistedReport } from './report-cases';
import { requestsReport, type RequestsReport } from './report-requests';

/**
 * The operator report's numbers (issue 17), from `insight_events` alone: the registration and PIN
 * recovery funnels (distinct journeys that reached each stage), conversion per stage, step times
 * (median and p90 of the time from entering a step to passing it), the top failure reasons per step
 * (the flows' codes and the engine's), the kiosk's recognitions, and a daily series. Days are
 * Paraguay's (UTC-3 all year since October 2024).
 *
 * One failure is counted once (issue 29 item 19): the failure reasons are what the patient's page
 * reported, one event per failure. The identity engine's own decisions about the same failures
 * (no journey: they cannot be matched one to one) are a separate breakdown, never added to them.
 * A step passed with no measurable time (0 ms: nobody did anything there) has no time: 'sin datos',
 * not 0.0 s.
 */

const REPORT_UTC_OFFSET = PARAGUAY_UTC_OFFSET;
const OFFSET_SQL = "interval '3 hours'";

type ReportRange = { desde: string; hasta: string; from: Date; to: Date };

/** `--desde`/`--hasta` (YYYY-MM-DD, both included, Paraguay's days) as a half-open range. */
export function reportRange(desde: string, hasta: string): ReportRange | null {
  const day = /^\d{4}-\d{2}-\d{2}$/;
  if (!day.test(desde) || !day.test(hasta)) return null;
  const from = new Date(`${desde}T00:00:00${REPORT_UTC_OFFSET}`);
  const last = new Date(`${hasta}T00:00:00${REPORT_UTC_OFFSET}`);
  if (Number.isNaN(from.getTime()) || Number.isNaN(last.getTime()) || last < from) return null;
  // A real calendar day (no 2026-02-30).
  const real = (d: string) => {
    const t = new Date(`${d}T12:00:00Z`);
    return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === d;
  };
  if (!real(desde) || !real(hasta)) return null;
  return { desde, hasta, from, to: new Date(last.getTime() + 86_400_000) };
}

type Stage = {
  key: string;
  label: string;
  step: string;
  outcome: 'entered' | 'passed';
  /**
   * Counted from the cases a person approved in the range (decided then), not from journeys: a
   * way to the next stage beside the one before it, with no conversion of its own (its step and
   * outcome name what it stands for, and are not counted).
   */
  approvals?: true;
  /** The stages its conversion is of (their sum; default: the stage before). */
  of?: string[];
};

const ONBOARDING_FUNNEL: Stage[] = [
  { key: 'started', label: 'Registro iniciado', step: 'registration', outcome: 'entered' },
  { key: 'phoneVerified', label: 'Celular verificado', step: 'verification', outcome: 'passed' },
  { key: 'pinCreated', label: 'PIN creado', step: 'pin', outcome: 'passed' },
  { key: 'selfiePassed', label: 'Selfie aprobada', step: 'selfie', outcome: 'passed' },
  { key: 'documentPassed', label: 'Documento aprobado', step: 'document', outcome: 'passed' },
  // A person verified the identity (review or health centre, issue 30): the registration resumes
  // past the identity step on a journey of its own, with no document passed (issue 43 item 11).
  {
    key: 'verifiedByPerson',
    label: 'Verificado por una persona',
    step: 'document',
    outcome: 'passed',
    approvals: true,
  },
  {
    key: 'registered',
    label: 'Registrado',
    step: 'register',
    outcome: 'passed',
    of: ['documentPassed', 'verifiedByPerson'],
  },
];

const RECOVERY_FUNNEL: Stage[] = [
  { key: 'started', label: 'Recuperación iniciada', step: 'request', outcome: 'entered' },
  { key: 'codeSent', label: 'Código enviado', step: 'request', outcome: 'passed' },
  { key: 'codeVerified', label: 'Código verificado', step: 'verification', outcome: 'passed' },
  { key: 'pinSaved', label: 'PIN guardado', step: 'newPin', outcome: 'passed' },
];

type FunnelRow = {
  key: string;
  label: string;
  count: number;
  /** of the previous stage (null for the first, or when the previous is 0) */
  conversion: number | null;
  /** of the first stage */
  overall: number | null;
};
export type StepTime = {
  step: string;
  /** passes with a measured time (over 0 ms) */
  n: number;
  /** null: no pass with a measured time ('sin datos') */
  median: number | null;
  p90: number | null;
  /** p10, p25, p50, p75, p90 in ms (the distribution chart), or null with no measured time */
  quantiles: [number, number, number, number, number] | null;
};
export type Reason = { step: string; error: string; source: 'browser' | 'engine'; count: number };
export type DailyRow = { day: string; started: number; completed: number };

export type FlowReport = {
  funnel: FunnelRow[];
  times: StepTime[];
  /** the top reasons per step, most frequent first: each failure the page reported, once */
  reasons: Reason[];
  /** the identity engine's decisions behind those failures (a breakdown, not more failures) */
  engineReasons: Reason[];
  daily: DailyRow[];
};
export type KioskReport = {
  attempts: number;
  recognised: number;
  notRecognised: number;
  /** time to recognition (start of an attempt to a recognised decision) */
  time: StepTime | null;
  reasons: Reason[];
  engineReasons: Reason[];
  daily: DailyRow[];
};
export type Report = {
  range: { desde: string; hasta: string };
  events: number;
  journeys: number;
  onboarding: FlowReport;
  recovery: FlowReport;
  kiosk: KioskReport;
  /** the assisted path (issue 30): cases, outcomes, time to decision, looks per operator */
  assisted: AssistedReport;
  /** the patients' own requests from Mis datos by kind, and days to completion (issue 45 item 8) */
  requests: RequestsReport;
  /**
   * The selfie challenge's signals (issue 31): selfie sessions that raised each one (every signal,
   * 0 included). Signals, never verdicts: not among the failures.
   */
  signals: Array<{ signal: string; sessions: number }>;
};

type Filter = { where: string; params: unknown[] };

/** The range and, when given, only these journeys (support, tests): `at` first for the index. */
function filter(range: ReportRange, flow: InsightFlow | null, journeys?: string[]): Filter {
  const params: unknown[] = [range.from, range.to];
  let where = 'at >= $1 AND at < $2';
  if (flow) {
    params.push(flow);
    where += ` AND flow = $${params.length}`;
  }
  if (journeys?.length) {
    params.push(journeys);
    where += ` AND journey = ANY($${params.length}::uuid[])`;
  }
  return { where, params };
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

/**
 * The cases a person approved, decided in the range (none when only some journeys are asked for:
 * a case carries no journey).
 */
async function approvals(db: Db, range: ReportRange, journeys?: string[]): Promise<number> {
  if (journeys?.length) return 0;
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM cases
      WHERE status = 'approved' AND decided_at >= $1 AND decided_at < $2`,
    [range.from, range.to],
  );
  return rows[0]?.n ?? 0;
}

async function funnel(
  db: Db,
  f: Filter,
  stages: Stage[],
  approved: () => Promise<number>,
): Promise<FunnelRow[]> {
  const { rows } = await db.query<{ step: string; outcome: string; n: number }>(
    `SELECT step, outcome, count(DISTINCT journey)::int AS n FROM insight_events
      WHERE ${f.where} AND source = 'browser' AND outcome IN ('entered', 'passed')
      GROUP BY step, outcome`,
    f.params,
  );
  const byApprovals = stages.some((s) => s.approvals) ? await approved() : 0;
  const count = (s: Stage) =>
    s.approvals
      ? byApprovals
      : (rows.find((r) => r.step === s.step && r.outcome === s.outcome)?.n ?? 0);
  const counts = stages.map(count);
  const countOf = (key: string) => counts[stages.findIndex((s) => s.key === key)] ?? 0;
  return stages.map((s, i) => {
    const of = s.of ? s.of.reduce((sum, key) => sum + countOf(key), 0) : counts[i - 1]!;
    return {
      key: s.key,
      label: s.label,
      count: counts[i]!,
      conversion: i === 0 || s.approvals ? null : ratio(counts[i]!, of),
      overall: i === 0 ? null : ratio(counts[i]!, counts[0]!),
    };
  });
}

/** Every step passed (and every `steps` given), with its times; a step with none measured has null. */
async function times(db: Db, f: Filter, steps: string[] = []): Promise<StepTime[]> {
  const { rows } = await db.query<{ step: string; n: number; q: number[] | null }>(
    `SELECT step, count(*) FILTER (WHERE duration_ms > 0)::int AS n,
            percentile_cont(ARRAY[0.1, 0.25, 0.5, 0.75, 0.9]) WITHIN GROUP (ORDER BY duration_ms)
              FILTER (WHERE duration_ms > 0) AS q
       FROM insight_events
      WHERE ${f.where} AND source = 'browser' AND outcome = 'passed'
      GROUP BY step`,
    f.params,
  );
  const found = rows.map((r): StepTime => {
    if (!r.n || !r.q) return { step: r.step, n: 0, median: null, p90: null, quantiles: null };
    const q = r.q.map((x) => Math.round(Number(x))) as NonNullable<StepTime['quantiles']>;
    return { step: r.step, n: r.n, median: q[2], p90: q[4], quantiles: q };
  });
  const missing = [...new Set(steps)].filter((s) => !found.some((t) => t.step === s));
  return [
    ...found,
    ...missing.map((step) => ({ step, n: 0, median: null, p90: null, quantiles: null })),
  ];
}

/** The top reasons per step of one source: the page's failures, or the engine's decisions. */
async function reasons(
  db: Db,
  f: Filter,
  source: Reason['source'],
  perStep = 5,
): Promise<Reason[]> {
  const { rows } = await db.query<Reason>(
    `SELECT step, error, source, count(*)::int AS count FROM insight_events
      WHERE ${f.where} AND outcome = 'failed' AND error IS NOT NULL AND source = $${f.params.length + 1}
      GROUP BY step, error, source ORDER BY count DESC, step, error`,
    [...f.params, source],
  );
  const kept = new Map<string, number>();
  return rows.filter((r) => {
    const n = kept.get(r.step) ?? 0;
    kept.set(r.step, n + 1);
    return n < perStep;
  });
}

async function daily(db: Db, f: Filter, first: Stage, last: Stage): Promise<DailyRow[]> {
  const { rows } = await db.query<DailyRow>(
    `SELECT to_char((at AT TIME ZONE 'UTC') - ${OFFSET_SQL}, 'YYYY-MM-DD') AS day,
            count(DISTINCT journey) FILTER (WHERE step = '${first.step}' AND outcome = '${first.outcome}')::int AS started,
            count(DISTINCT journey) FILTER (WHERE step = '${last.step}' AND outcome = '${last.outcome}')::int AS completed
       FROM insight_events
      WHERE ${f.where} AND source = 'browser' AND outcome IN ('entered', 'passed')
      GROUP BY 1 ORDER BY 1`,
    f.params,
  );
  return rows;
}

async function flowReport(
  db: Db,
  range: ReportRange,
  flow: InsightFlow,
  stages: Stage[],
  journeys?: string[],
): Promise<FlowReport> {
  const f = filter(range, flow, journeys);
  const steps = stages.filter((s) => !s.approvals).map((s) => s.step);
  const [fun, t, r, e, d] = await Promise.all([
    funnel(db, f, stages, () => approvals(db, range, journeys)),
    times(db, f, steps),
    reasons(db, f, 'browser'),
    reasons(db, f, 'engine'),
    daily(db, f, stages[0]!, stages.at(-1)!),
  ]);
  // Step times in the flow's order (the funnel's steps first, then the others).
  const rank = (step: string) => (steps.includes(step) ? steps.indexOf(step) : steps.length);
  t.sort((a, b) => rank(a.step) - rank(b.step) || a.step.localeCompare(b.step));
  return { funnel: fun, times: t, reasons: r, engineReasons: e, daily: d };
}

async function kioskReport(db: Db, range: ReportRange, journeys?: string[]): Promise<KioskReport> {
  const f = filter(range, 'faceLogin', journeys);
  const recognition = { where: `${f.where} AND step = 'recognition'`, params: f.params };
  const [{ rows }, t, r, e, d] = await Promise.all([
    db.query<{ recognised: number; not_recognised: number }>(
      `SELECT count(*) FILTER (WHERE outcome = 'passed')::int AS recognised,
              count(*) FILTER (WHERE outcome = 'failed' AND error = 'notRecognised')::int AS not_recognised
         FROM insight_events WHERE ${recognition.where} AND source = 'browser'`,
      recognition.params,
    ),
    times(db, recognition),
    reasons(db, f, 'browser'),
    reasons(db, f, 'engine'),
    db.query<DailyRow>(
      `SELECT to_char((at AT TIME ZONE 'UTC') - ${OFFSET_SQL}, 'YYYY-MM-DD') AS day,
              count(*) FILTER (WHERE outcome IN ('passed', 'failed'))::int AS started,
              count(*) FILTER (WHERE outcome = 'passed')::int AS completed
         FROM insight_events WHERE ${recognition.where} AND source = 'browser'
        GROUP BY 1 ORDER BY 1`,
      recognition.params,
    ),
  ]);
  const recognised = rows[0]?.recognised ?? 0;
  const notRecognised = rows[0]?.not_recognised ?? 0;
  return {
    attempts: recognised + notRecognised,
    recognised,
    notRecognised,
    time: t[0]?.quantiles ? t[0] : null,
    reasons: r,
    engineReasons: e,
    daily: d.rows,
  };
}

export async function buildReport(
  db: Db,
  range: ReportRange,
  options: { journeys?: string[] } = {},
): Promise<Report> {
  const f = filter(range, null, options.journeys);
  const [totals, onboarding, recovery, kiosk, assisted, signals, requests] = await Promise.all([
    db.query<{ events: number; journeys: number }>(
      `SELECT count(*)::int AS events, count(DISTINCT journey)::int AS journeys
         FROM insight_events WHERE ${f.where}`,
      f.params,
    ),
    flowReport(db, range, 'onboarding', ONBOARDING_FUNNEL, options.journeys),
    flowReport(db, range, 'recovery', RECOVERY_FUNNEL, options.journeys),
    kioskReport(db, range, options.journeys),
    assistedReport(db, range.from, range.to),
    db.query<{ error: string; count: number }>(
      `SELECT error, count(*)::int AS count FROM insight_events
        WHERE ${f.where} AND source = 'engine' AND outcome = 'signal' AND error IS NOT NULL
        GROUP BY error`,
      f.params,
    ),
    requestsReport(db, range.from, range.to),
  ]);
  const raised = new Map(signals.rows.map((r) => [r.error, r.count]));
  return {
    range: { desde: range.desde, hasta: range.hasta },
    events: totals.rows[0]?.events ?? 0,
    journeys: totals.rows[0]?.journeys ?? 0,
    onboarding,
    recovery,
    kiosk,
    assisted,
    requests,
    signals: LIVENESS_SIGNALS.map((signal) => ({ signal, sessions: raised.get(signal) ?? 0 })),
  };
}

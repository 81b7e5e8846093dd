import type { Db } from '../db/client';

/**
 * The patients' own requests in the journey-insight report (issue 45 item 8): how many of each
 * kind, from the access log (`patient_access_log`, written by server/my-data/access-log.ts), and,
 * where a request has a completion, the days it took. No personal data: every query groups by kind
 * and result and returns counts and durations only, never a patient id, a time of one patient or
 * a row (tests/server/insight-requests.test.ts looks for the patients in the text and the HTML).
 * The kinds are counted from the log, so a section that writes its kind is counted when it lands.
 */
export const REQUEST_KINDS = [
  'download',
  'face_lock',
  'face_unlock',
  'face_withdraw',
  'correction',
  'deletion_request',
  'deletion_cancel',
  'secondary_use',
] as const;
type RequestKind = (typeof REQUEST_KINDS)[number];

export const REQUEST_LABELS: Record<RequestKind, string> = {
  download: 'Descarga de mis datos',
  face_lock: 'Rostro bloqueado',
  face_unlock: 'Rostro desbloqueado',
  face_withdraw: 'Consentimiento del rostro retirado',
  correction: 'Corrección de datos pedida',
  deletion_request: 'Eliminación de cuenta pedida',
  deletion_cancel: 'Eliminación de cuenta cancelada',
  secondary_use: 'Cambio sobre usos secundarios',
};

/**
 * Where a request's completion is read, per kind: a statement over the range ($1, $2) that yields
 * one `days` per request completed (from asking to done). A download is built within its request
 * (its log row is written when the file is ready): 0 days. A correction is done when its case is
 * decided (`cases` of kind 'correction', by opening time). A deletion is done when the deletion
 * job deletes the account (`account_deletions`, from asking to done; the wait is most of it).
 */
const COMPLETIONS: Partial<Record<RequestKind, string>> = {
  download: `SELECT 0::float8 AS days FROM patient_access_log
              WHERE kind = 'download' AND result = 'ok' AND at >= $1 AND at < $2`,
  correction: `SELECT extract(epoch FROM decided_at - opened_at) / 86400 AS days FROM cases
                WHERE kind = 'correction' AND decided_at IS NOT NULL
                  AND opened_at >= $1 AND opened_at < $2`,
  deletion_request: `SELECT extract(epoch FROM done_at - requested_at) / 86400 AS days
                       FROM account_deletions
                      WHERE status = 'done' AND requested_at >= $1 AND requested_at < $2`,
};

export type RequestsReport = {
  /** every kind, 0 included: requests in the range by result */
  byKind: Array<{ kind: RequestKind; ok: number; failed: number }>;
  /** the kinds with a completion: how many completed and the days it took (median, p90) */
  completion: Array<{
    kind: RequestKind;
    completed: number;
    medianDays: number | null;
    p90Days: number | null;
  }>;
};

export async function requestsReport(db: Db, from: Date, to: Date): Promise<RequestsReport> {
  const counts = await db.query<{ kind: RequestKind; ok: number; failed: number }>(
    `SELECT kind, count(*) FILTER (WHERE result = 'ok')::int AS ok,
            count(*) FILTER (WHERE result <> 'ok')::int AS failed
       FROM patient_access_log
      WHERE at >= $1 AND at < $2 AND kind = ANY($3::text[])
      GROUP BY kind`,
    [from, to, [...REQUEST_KINDS]],
  );
  const completion = await Promise.all(
    Object.entries(COMPLETIONS).map(async ([kind, sql]) => {
      const { rows } = await db.query<{ n: number; q: number[] | null }>(
        `SELECT count(*)::int AS n,
                percentile_cont(ARRAY[0.5, 0.9]) WITHIN GROUP (ORDER BY days) AS q
           FROM (${sql}) AS done`,
        [from, to],
      );
      const q = rows[0]?.q;
      const round = (x: number | undefined) => (x == null ? null : Math.round(Number(x) * 10) / 10);
      return {
        kind: kind as RequestKind,
        completed: rows[0]?.n ?? 0,
        medianDays: q ? round(q[0]) : null,
        p90Days: q ? round(q[1]) : null,
      };
    }),
  );
  return {
    byKind: REQUEST_KINDS.map((kind) => {
      const row = counts.rows.find((r) => r.kind === kind);
      return { kind, ok: row?.ok ?? 0, failed: row?.failed ?? 0 };
    }),
    completion,
  };
}

const days = (d: number | null) => (d === null ? 'sin datos' : `${d.toFixed(1)} días`);

/** The section's tables (text and HTML): each a caption, a head and rows. */
export function requestsTables(r: RequestsReport): Array<[string, string[], string[][]]> {
  return [
    [
      'Pedidos de los pacientes por tipo (Mis datos)',
      ['Pedido', 'Hechos', 'Fallidos'],
      r.byKind.map((k) => [REQUEST_LABELS[k.kind], String(k.ok), String(k.failed)]),
    ],
    [
      'Días hasta completar el pedido',
      ['Pedido', 'Completados', 'Mediana', 'p90'],
      r.completion.map((c) => [
        REQUEST_LABELS[c.kind],
        String(c.completed),
        days(c.medianDays),
        days(c.p90Days),
      ]),
    ],
  ];
}

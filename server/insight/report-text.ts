import { label, reasonLabels, stepLabels } from './labels';
import type { FlowReport, KioskReport, Reason, Report, StepTime } from './report';
import {
  CASE_KIND_LABELS,
  CASE_STATUS_LABELS,
  TRIGGER_LABELS,
  type AssistedReport,
} from './report-cases';
import { requestsTables } from './report-requests';

/** The report as plain text for the terminal (Spanish, aligned columns). */

export const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)} %`);
/** A time; `null` (a step with no measured time) is 'sin datos', never 0.0 s. */
export const secs = (ms: number | null) =>
  ms === null
    ? NO_TIME
    : ms < 60_000
      ? `${(ms / 1000).toFixed(1)} s`
      : `${(ms / 60_000).toFixed(1)} min`;
export const NO_TIME = 'sin datos';

/** The heading of the engine's breakdown: the same failures seen from the identity engine. */
export const ENGINE_REASONS_TITLE =
  'Detalle del motor de identidad (las mismas fallas vistas por el motor; no se suman)';

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const timesTable = (times: StepTime[]) =>
  times.length
    ? table(
        ['Paso', 'Casos', 'Mediana', 'p90'],
        times.map((t) => [label(stepLabels, t.step), String(t.n), secs(t.median), secs(t.p90)]),
      )
    : '(sin datos)';

const reasonsTable = (reasons: Reason[]) =>
  reasons.length
    ? table(
        ['Paso', 'Motivo', 'Veces'],
        reasons.map((r) => [
          label(stepLabels, r.step),
          label(reasonLabels, r.error),
          String(r.count),
        ]),
      )
    : '(sin fallas)';

const engineText = (reasons: Reason[]) =>
  reasons.length ? ['', ENGINE_REASONS_TITLE, reasonsTable(reasons)] : [];

/** The selfie challenge's signals (issue 31): a line per signal, never counted as failures. */
export const SIGNALS_TITLE =
  'Señales de la prueba de vida (sesiones de selfie que las mostraron; no son rechazos)';
export const signalRows = (r: Report): string[][] =>
  r.signals.map((s) => [label(reasonLabels, s.signal), String(s.sessions)]);
export const SIGNALS_HEAD = ['Señal', 'Sesiones'];

function flowText(title: string, f: FlowReport): string {
  return [
    `## ${title}`,
    '',
    table(
      ['Etapa', 'Recorridos', 'Conversión', 'Del inicio'],
      f.funnel.map((s) => [s.label, String(s.count), pct(s.conversion), pct(s.overall)]),
    ),
    '',
    'Tiempo por paso (desde que se muestra hasta que se supera)',
    timesTable(f.times),
    '',
    'Motivos de falla más frecuentes por paso',
    reasonsTable(f.reasons),
    ...engineText(f.engineReasons),
  ].join('\n');
}

/** The kiosk's one-line summary (text and HTML). */
export const KIOSK_HEAD = ['Intentos', 'Reconocidos', 'No reconocidos', 'Tasa', 'Mediana', 'p90'];
export const kioskRow = (k: KioskReport): string[] => [
  String(k.attempts),
  String(k.recognised),
  String(k.notRecognised),
  pct(k.attempts ? k.recognised / k.attempts : null),
  k.time ? secs(k.time.median) : '—',
  k.time ? secs(k.time.p90) : '—',
];

function kioskText(k: KioskReport): string {
  return [
    '## Kiosco (reconocimiento facial)',
    '',
    table(KIOSK_HEAD, [kioskRow(k)]),
    '',
    'Motivos de falla más frecuentes',
    reasonsTable(k.reasons),
    ...engineText(k.engineReasons),
  ].join('\n');
}

/** The assisted path's tables (text and HTML): each a caption, a head and rows. */
export function assistedTables(a: AssistedReport): Array<[string, string[], string[][]]> {
  return [
    [
      'Casos por motivo y tipo',
      ['Motivo', 'Tipo', 'Casos'],
      a.byTrigger.map((t) => [
        label(TRIGGER_LABELS, t.trigger),
        label(CASE_KIND_LABELS, t.kind),
        String(t.count),
      ]),
    ],
    [
      'Resultados',
      ['Estado', 'Casos'],
      a.outcomes.map((o) => [label(CASE_STATUS_LABELS, o.status), String(o.count)]),
    ],
    [
      'Tiempo hasta la decisión',
      ['Decididos', 'Mediana', 'p90'],
      [[String(a.decision.n), secs(a.decision.median), secs(a.decision.p90)]],
    ],
    [
      'Rechazos automáticos que una persona aprobó',
      ['Motivo', 'Aprobados'],
      a.refusalsApproved.map((r) => [label(TRIGGER_LABELS, r.trigger), String(r.count)]),
    ],
    [
      'Miradas por operador (registro de auditoría)',
      ['Operador', 'Casos', 'Vistas', 'Imágenes', 'Búsquedas', 'Sin resultado'],
      a.looks.map((l) => [
        l.operator,
        String(l.cases),
        String(l.views),
        String(l.images),
        String(l.lookups),
        String(l.missedLookups),
      ]),
    ],
  ];
}

function assistedText(a: AssistedReport): string {
  return [
    '## Verificación asistida',
    '',
    `${a.opened} casos abiertos`,
    ...assistedTables(a).flatMap(([caption, head, rows]) => [
      '',
      caption,
      rows.length ? table(head, rows) : '(sin datos)',
    ]),
  ].join('\n');
}

function requestsText(r: Report): string {
  return [
    '## Pedidos en Mis datos',
    ...requestsTables(r.requests).flatMap(([caption, head, rows]) => [
      '',
      caption,
      table(head, rows),
    ]),
  ].join('\n');
}

export function reportText(r: Report): string {
  return [
    `# Informe de recorridos del ${r.range.desde} al ${r.range.hasta}`,
    `${r.events} eventos, ${r.journeys} recorridos`,
    '',
    flowText('Registro', r.onboarding),
    '',
    SIGNALS_TITLE,
    table(SIGNALS_HEAD, signalRows(r)),
    '',
    flowText('Recuperación de PIN', r.recovery),
    '',
    kioskText(r.kiosk),
    '',
    assistedText(r.assisted),
    '',
    requestsText(r),
    '',
  ].join('\n');
}

import { label, reasonLabels, stepLabels } from './labels';
import type { FlowReport, KioskReport, Reason, Report, StepTime } from './report';

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

export function reportText(r: Report): string {
  return [
    `# Informe de recorridos del ${r.range.desde} al ${r.range.hasta}`,
    `${r.events} eventos, ${r.journeys} recorridos`,
    '',
    flowText('Registro', r.onboarding),
    '',
    flowText('Recuperación de PIN', r.recovery),
    '',
    kioskText(r.kiosk),
    '',
  ].join('\n');
}

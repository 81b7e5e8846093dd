import { label, reasonLabels, stepLabels } from './labels';
import type { FlowReport, KioskReport, Reason, Report, StepTime } from './report';

/** The report as plain text for the terminal (Spanish, aligned columns). */

export const pct = (x: number | null) => (x === null ? '—' : `${(x * 100).toFixed(1)} %`);
export const secs = (ms: number) =>
  ms < 60_000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 60_000).toFixed(1)} min`;

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

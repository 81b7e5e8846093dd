import * as echarts from 'echarts';
import { label, reasonLabels, stepLabels } from './labels';
import { requestsTables } from './report-requests';
import type { DailyRow, FlowReport, Reason, Report, StepTime } from './report';
import {
  assistedTables,
  ENGINE_REASONS_TITLE,
  KIOSK_HEAD,
  kioskRow,
  pct,
  secs,
  SIGNALS_HEAD,
  SIGNALS_TITLE,
  signalRows,
} from './report-text';

/**
 * The report as one self-contained HTML file: inline CSS and SVG charts drawn on the server by
 * Apache ECharts (`renderer: 'svg', ssr: true`, no script in the page), each chart beside a table
 * of the same numbers, Spanish labels. Opens offline in any browser.
 */

// Drawn at 480 px and scaled to the page: on a 360 px phone the labels keep about 3/4 of their size
// (at 720 px they shrank to half, unreadable); on a desktop they grow to the page's width.
const WIDTH = 480;
const COLORS = ['#1f5fa8', '#b03a2e', '#1e7b4f', '#7a4fa0', '#a86b00'];

const escape = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** One chart as inline SVG with its accessible name. */
function chart(option: echarts.EChartsCoreOption, name: string, height = 320): string {
  const c = echarts.init(null, null, { renderer: 'svg', ssr: true, width: WIDTH, height });
  try {
    c.setOption({
      animation: false,
      color: COLORS,
      textStyle: { fontFamily: 'sans-serif', color: '#1a1a1a' },
      ...option,
    });
    const svg = c.renderToSVGString();
    return svg.replace('<svg ', `<svg role="img" aria-label="${escape(name)}" focusable="false" `);
  } finally {
    c.dispose();
  }
}

function figure(title: string, svg: string, tableHtml: string): string {
  return `<figure><figcaption>${escape(title)}</figcaption>${svg}${tableHtml}</figure>`;
}

function table(caption: string, head: string[], rows: string[][]): string {
  const th = head.map((h) => `<th scope="col">${escape(h)}</th>`).join('');
  const body = rows
    .map(
      (r) =>
        `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${escape(c)}</th>` : `<td>${escape(c)}</td>`)).join('')}</tr>`,
    )
    .join('');
  return `<div class="scroll" role="region" aria-label="${escape(caption)}" tabindex="0"><table><caption>${escape(caption)}</caption><thead><tr>${th}</tr></thead><tbody>${body || `<tr><td colspan="${head.length}">Sin datos</td></tr>`}</tbody></table></div>`;
}

function funnelFigure(title: string, f: FlowReport): string {
  const svg = chart(
    {
      series: [
        {
          type: 'funnel',
          sort: 'none',
          left: 10,
          right: 170,
          top: 20,
          bottom: 20,
          minSize: '8%',
          label: { position: 'right', color: '#1a1a1a', formatter: '{b}: {c}' },
          data: f.funnel.map((s) => ({ name: s.label, value: s.count })),
        },
      ],
    },
    `${title}: ${f.funnel.map((s) => `${s.label} ${s.count}`).join(', ')}`,
  );
  return figure(
    title,
    svg,
    table(
      `${title} (recorridos)`,
      ['Etapa', 'Recorridos', 'Conversión', 'Del inicio'],
      f.funnel.map((s) => [s.label, String(s.count), pct(s.conversion), pct(s.overall)]),
    ),
  );
}

function reasonsFigure(title: string, reasons: Reason[]): string {
  const rows = [...reasons].reverse();
  const names = rows.map((r) => `${label(stepLabels, r.step)}: ${label(reasonLabels, r.error)}`);
  const svg = rows.length
    ? chart(
        {
          grid: { left: 230, right: 30, top: 20, bottom: 30 },
          xAxis: { type: 'value', minInterval: 1 },
          yAxis: { type: 'category', data: names, axisLabel: { width: 220, overflow: 'break' } },
          series: [{ type: 'bar', data: rows.map((r) => r.count), label: { show: true } }],
        },
        `${title}: ${reasons.map((r) => `${label(reasonLabels, r.error)} ${r.count}`).join(', ')}`,
        Math.max(160, 40 + rows.length * 36),
      )
    : '';
  return figure(
    title,
    svg,
    table(
      title,
      ['Paso', 'Motivo', 'Veces'],
      reasons.map((r) => [
        label(stepLabels, r.step),
        label(reasonLabels, r.error),
        String(r.count),
      ]),
    ),
  );
}

/** The engine's breakdown, only where it has something to say. */
const engineFigure = (section: string, reasons: Reason[]) =>
  reasons.length ? reasonsFigure(`${section}: ${ENGINE_REASONS_TITLE}`, reasons) : '';

function timesFigure(title: string, times: StepTime[]): string {
  const s = (ms: number) => Number((ms / 1000).toFixed(1));
  // Steps with no measured time stay out of the chart (a 0.0 s box would flatten the others) and
  // say 'sin datos' in the table.
  const timed = times.filter(
    (t): t is StepTime & { quantiles: NonNullable<StepTime['quantiles']> } => t.quantiles !== null,
  );
  const svg = timed.length
    ? chart(
        {
          grid: { left: 70, right: 30, top: 30, bottom: 60 },
          xAxis: {
            type: 'category',
            data: timed.map((t) => label(stepLabels, t.step)),
            axisLabel: { interval: 0, rotate: 20 },
          },
          yAxis: { type: 'value', name: 'segundos' },
          series: [
            {
              type: 'boxplot',
              // p10, p25, median, p75, p90
              data: timed.map((t) => t.quantiles.map(s)),
            },
          ],
        },
        `${title}: ${timed.map((t) => `${label(stepLabels, t.step)} mediana ${secs(t.median)}, p90 ${secs(t.p90)}`).join('; ')}`,
      )
    : '';
  return figure(
    `${title} (caja: p25 a p75, línea: mediana, bigotes: p10 y p90)`,
    svg,
    table(
      title,
      ['Paso', 'Casos', 'p10', 'Mediana', 'p90'],
      times.map((t) => [
        label(stepLabels, t.step),
        String(t.n),
        secs(t.quantiles?.[0] ?? null),
        secs(t.median),
        secs(t.p90),
      ]),
    ),
  );
}

function dailyFigure(title: string, daily: DailyRow[], names: [string, string]): string {
  const svg = daily.length
    ? chart(
        {
          legend: { top: 0 },
          grid: { left: 50, right: 30, top: 40, bottom: 40 },
          xAxis: { type: 'category', data: daily.map((d) => d.day) },
          yAxis: { type: 'value', minInterval: 1 },
          series: [
            { type: 'line', name: names[0], data: daily.map((d) => d.started) },
            { type: 'line', name: names[1], data: daily.map((d) => d.completed) },
          ],
        },
        `${title}: ${daily.map((d) => `${d.day} ${d.started} y ${d.completed}`).join(', ')}`,
      )
    : '';
  return figure(
    title,
    svg,
    table(
      title,
      ['Día', ...names],
      daily.map((d) => [d.day, String(d.started), String(d.completed)]),
    ),
  );
}

// Readable at 360 px (issue 29 item 19): tables wrap their text and scroll sideways inside their
// own box when they must, never the page; charts scale to the width.
const STYLE = `
body{font-family:system-ui,sans-serif;color:#1a1a1a;background:#fff;margin:0 auto;max-width:800px;padding:1rem;line-height:1.4;overflow-wrap:break-word}
h1{font-size:1.6rem}h2{font-size:1.3rem;margin-top:2.5rem;border-bottom:2px solid #1f5fa8}
figure{margin:1.5rem 0}figcaption{font-weight:600;margin-bottom:.5rem}
svg{width:100%;max-width:100%;height:auto;display:block}
.scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;margin-top:.5rem;font-size:.9rem}
caption{text-align:left;font-style:italic;padding:.25rem 0}
th,td{border:1px solid #767676;padding:.25rem .5rem;text-align:right}
th[scope=row],thead th{text-align:left}
@media (max-width:480px){body{padding:.5rem}h1{font-size:1.3rem}h2{font-size:1.1rem}table{font-size:.8rem}th,td{padding:.2rem .3rem}}
`;

export function reportHtml(r: Report, generatedAt: Date): string {
  const k = r.kiosk;
  const kioskBars = chart(
    {
      grid: { left: 140, right: 40, top: 20, bottom: 30 },
      xAxis: { type: 'value', minInterval: 1 },
      yAxis: { type: 'category', data: ['No reconocidos', 'Reconocidos'] },
      series: [{ type: 'bar', data: [k.notRecognised, k.recognised], label: { show: true } }],
    },
    `Kiosco: ${k.recognised} reconocidos, ${k.notRecognised} no reconocidos`,
    160,
  );
  const title = `Informe de recorridos del ${r.range.desde} al ${r.range.hasta}`;
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escape(title)}</h1>
<p>${r.events} eventos, ${r.journeys} recorridos. Generado el ${escape(generatedAt.toISOString().slice(0, 16).replace('T', ' '))} (UTC). Sin datos personales: solo pasos, resultados, códigos de error y tiempos.</p>
<section aria-labelledby="registro"><h2 id="registro">Registro</h2>
${funnelFigure('Embudo del registro', r.onboarding)}
${reasonsFigure('Motivos de falla del registro', r.onboarding.reasons)}
${engineFigure('Registro', r.onboarding.engineReasons)}
${table(SIGNALS_TITLE, SIGNALS_HEAD, signalRows(r))}
${timesFigure('Tiempo por paso del registro', r.onboarding.times)}
${dailyFigure('Registro por día', r.onboarding.daily, ['Iniciados', 'Registrados'])}
</section>
<section aria-labelledby="recuperacion"><h2 id="recuperacion">Recuperación de PIN</h2>
${funnelFigure('Embudo de la recuperación de PIN', r.recovery)}
${reasonsFigure('Motivos de falla de la recuperación', r.recovery.reasons)}
${engineFigure('Recuperación de PIN', r.recovery.engineReasons)}
${timesFigure('Tiempo por paso de la recuperación', r.recovery.times)}
${dailyFigure('Recuperación por día', r.recovery.daily, ['Iniciadas', 'PIN guardado'])}
</section>
<section aria-labelledby="kiosco"><h2 id="kiosco">Kiosco (reconocimiento facial)</h2>
${figure(
  'Resultados del kiosco',
  kioskBars,
  table('Resultados del kiosco', KIOSK_HEAD, [kioskRow(k)]),
)}
${reasonsFigure('Motivos de falla del kiosco', k.reasons)}
${engineFigure('Kiosco', k.engineReasons)}
${timesFigure('Tiempo hasta el reconocimiento', k.time ? [k.time] : [])}
${dailyFigure('Kiosco por día', k.daily, ['Intentos', 'Reconocidos'])}
</section>
<section aria-labelledby="asistida"><h2 id="asistida">Verificación asistida</h2>
<p>${r.assisted.opened} casos abiertos.</p>
${assistedTables(r.assisted)
  .map(([caption, head, rows]) => table(caption, head, rows))
  .join('\n')}
</section>
<section aria-labelledby="pedidos"><h2 id="pedidos">Pedidos en Mis datos</h2>
${requestsTables(r.requests)
  .map(([caption, head, rows]) => table(caption, head, rows))
  .join('\n')}
</section>
</main>
</body>
</html>
`;
}

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { storedJourneyId } from '../insight/ingest';
import { buildReport, reportRange } from '../insight/report';
import { resolveSecrets } from '../security/secrets';
import { reportHtml } from '../insight/report-html';
import { reportText } from '../insight/report-text';
import { openCliDatabase } from './db';

const USAGE = `Usage: npm run report -- --desde YYYY-MM-DD --hasta YYYY-MM-DD [--html FILE] [--json] [--recorrido ID ...]
Journey insight (issue 17): the registration funnel, PIN recovery and the kiosk, with conversion,
step times (median, p90) and the top failure reasons per step, for the days from --desde to
--hasta (both included, Paraguay's days). Prints the tables (or, with --json, the numbers) and
writes one self-contained HTML file with charts (default informes/informe-DESDE-HASTA.html; the
informes/ folder is created if needed and ignored by git).
--recorrido keeps only the given journey ids, as the browser sent them (support, tests). Safe while the server runs.`;

/** Where reports go unless --html says otherwise: a folder of their own, ignored by git. */
const REPORTS_DIR = 'informes';
const defaultReportFile = (desde: string, hasta: string) =>
  path.join(REPORTS_DIR, `informe-${desde}-${hasta}.html`);

async function main(argv: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        desde: { type: 'string' },
        hasta: { type: 'string' },
        html: { type: 'string' },
        json: { type: 'boolean' },
        recorrido: { type: 'string', multiple: true },
      },
      strict: true,
    }));
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const range = values.desde && values.hasta ? reportRange(values.desde, values.hasta) : null;
  if (!range) {
    console.error(`--desde and --hasta must be days (YYYY-MM-DD), desde <= hasta.\n${USAGE}`);
    return 2;
  }
  const journeyId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  if (values.recorrido?.some((j) => !journeyId.test(j))) {
    console.error(`--recorrido takes a journey id (a UUID).\n${USAGE}`);
    return 2;
  }
  const config = loadConfig(process.env);
  const db = await openCliDatabase(config);
  try {
    // A journey is stored under the server's id for the browser's (server/insight/ingest.ts).
    const { otpSecret } = await resolveSecrets(config);
    const journeys = values.recorrido?.map((j) => storedJourneyId(otpSecret, j));
    const t0 = performance.now();
    const report = await buildReport(db, range, journeys ? { journeys } : {});
    const queryMs = Math.round(performance.now() - t0);
    const file = path.resolve(values.html ?? defaultReportFile(range.desde, range.hasta));
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, reportHtml(report, new Date()));
    if (values.json) console.log(JSON.stringify({ ...report, html: file, via: db.via, queryMs }));
    else console.log(`${reportText(report)}\nHTML: ${file}\n(${db.via}, ${queryMs} ms)`);
    return 0;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);

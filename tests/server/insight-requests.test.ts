import { beforeEach, describe, expect, it } from 'vitest';
import { buildReport, reportRange } from '../../server/insight/report';
import { reportHtml } from '../../server/insight/report-html';
import { REQUEST_KINDS } from '../../server/insight/report-requests';
import { reportText } from '../../server/insight/report-text';
import { recordAccess, type AccessEntry } from '../../server/my-data/access-log';
import { upsertPatient } from '../../server/patients/service';
import { useTestApp, type TestApp } from './helpers';
import { ANA, BETO, loginAs } from './my-data-patients';

/**
 * The patients' requests in the insight report (issue 45 item 8): counted by kind from the access
 * log, whoever wrote the kind (the face, correction and deletion sections write theirs), with days
 * to completion where a request has one, and no personal data.
 */
describe('the report: the patients’ requests from Mis datos', () => {
  const h = useTestApp();
  let t: TestApp;
  let ana: string;
  let beto: string;
  beforeEach(async () => {
    t = h.t;
    ana = (await upsertPatient(t.ctx, ANA)).id;
    beto = (await upsertPatient(t.ctx, BETO)).id;
  });
  const log = (
    patientId: string,
    kind: AccessEntry['kind'],
    result: AccessEntry['result'] = 'ok',
  ) => recordAccess(t.ctx.db, { patientId, kind, result, at: new Date(t.clock.now()) });

  it('counts every request kind by result, downloads built the same day, nothing personal', async () => {
    // Two real downloads and an opt-out through the API; the other kinds as their sections log them.
    const sidAna = (await loginAs(t, ANA))!;
    const sidBeto = (await loginAs(t, BETO))!;
    for (const sid of [sidAna, sidBeto])
      await t.app.inject({ method: 'POST', url: '/api/mis-datos/descarga', cookies: { sid } });
    await t.app.inject({
      method: 'POST',
      url: '/api/mis-datos/usos-secundarios',
      cookies: { sid: sidAna },
      payload: { optedOut: true },
    });
    await log(ana, 'face_lock');
    await log(ana, 'face_unlock', 'failed');
    await log(beto, 'deletion_request');
    await log(beto, 'deletion_cancel');
    await log(beto, 'correction');
    await t.ctx.db.query(
      `INSERT INTO account_deletions (patient_id, status, requested_at, due_at, done_at)
       VALUES ($1, 'done', $2, $3, $4)`,
      [
        beto,
        new Date(t.clock.now()),
        new Date(t.clock.now() + 86_400_000),
        new Date(t.clock.now() + 30 * 3_600_000),
      ],
    );
    // Not requests: logins and looks; and a request outside the range.
    await log(ana, 'my_data');
    t.clock.advance(2 * 86_400_000);
    await log(ana, 'face_withdraw');

    const report = await buildReport(t.ctx.db, reportRange('2025-03-03', '2025-03-03')!);
    expect(report.requests.byKind).toEqual([
      { kind: 'download', ok: 2, failed: 0 },
      { kind: 'face_lock', ok: 1, failed: 0 },
      { kind: 'face_unlock', ok: 0, failed: 1 },
      { kind: 'face_withdraw', ok: 0, failed: 0 },
      { kind: 'correction', ok: 1, failed: 0 },
      { kind: 'deletion_request', ok: 1, failed: 0 },
      { kind: 'deletion_cancel', ok: 1, failed: 0 },
      { kind: 'secondary_use', ok: 1, failed: 0 },
    ]);
    expect(report.requests.byKind.map((k) => k.kind)).toEqual([...REQUEST_KINDS]);
    expect(report.requests.completion).toContainEqual({
      kind: 'download',
      completed: 2,
      medianDays: 0,
      p90Days: 0,
    });
    // Asked 2025-03-03 12:00, done 30 hours later by the job.
    expect(report.requests.completion).toContainEqual({
      kind: 'deletion_request',
      completed: 1,
      medianDays: 1.3,
      p90Days: 1.3,
    });
    expect(report.requests.completion).toContainEqual({
      kind: 'correction',
      completed: 0,
      medianDays: null,
      p90Days: null,
    });
    const later = await buildReport(t.ctx.db, reportRange('2025-03-05', '2025-03-05')!);
    expect(later.requests.byKind.find((k) => k.kind === 'face_withdraw')).toEqual({
      kind: 'face_withdraw',
      ok: 1,
      failed: 0,
    });

    const text = reportText(report);
    expect(text).toContain('## Pedidos en Mis datos');
    expect(text).toMatch(/Descarga de mis datos\s+2\s+0/);
    expect(text).toMatch(/Descarga de mis datos\s+2\s+0\.0 días\s+0\.0 días/);
    const html = reportHtml(report, new Date(t.clock.now()));
    expect(html).toContain('<h2 id="pedidos">Pedidos en Mis datos</h2>');
    for (const personal of ['ANA', 'RUIZ', '4567890', '0981555111', 'SOSA', '5678901']) {
      expect(text).not.toContain(personal);
      expect(html).not.toContain(personal);
    }
    expect(JSON.stringify(report.requests)).not.toMatch(new RegExp(`"(${ana}|${beto})"`));
  });
});

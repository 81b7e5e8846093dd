import { describe, expect, it } from 'vitest';
import { buildReport, reportRange } from '../../server/insight/report';
import { reportHtml } from '../../server/insight/report-html';
import { reportText } from '../../server/insight/report-text';
import { useCaseApps } from './cases-fixtures';

/**
 * The assisted path in the journey-insight report (issue 30): cases by trigger and kind, outcomes,
 * time to decision, automatic refusals a person approved, looks per operator. PGlite, and
 * PostgreSQL in the PostgreSQL tier.
 */

const { h, p, op } = useCaseApps();
const HOUR = 3_600_000;

describe('the report: assisted verification', () => {
  it('counts cases, outcomes, decision times, refusals approved and looks per operator', async () => {
    const a = await p.registration('0981000001');
    await p.openCase(a.token, { trigger: 'face_mismatch' });
    h.t.clock.advance(1000);
    const b = await p.registration('0981000002');
    await p.openCase(b.token, { trigger: 'liveness_failed' });
    h.t.clock.advance(1000);
    const c = await p.registration('0981000003');
    await p.openCase(c.token, { kind: 'centro', trigger: 'patient_choice' });

    // face_mismatch: approved by ana then sofia, 2 h after opening.
    h.t.clock.advance(HOUR);
    const first = (await op.post('ana', '/casos/tomar')).json().caseId as string;
    const shown = (await op.get('ana', `/casos/${first}`)).json().case.digest as string;
    await op.get('ana', `/casos/${first}/imagen/selfie`);
    await op.get('ana', `/casos/${first}/imagen/portrait`);
    await op.post('ana', `/casos/${first}/decision`, { decision: 'approve', digest: shown });
    h.t.clock.advance(HOUR);
    const again = (await op.post('sofia', '/casos/tomar')).json().caseId as string;
    // Back in the queue for a supervisor: the oldest case sofia may decide.
    expect(again).toBe(first);
    const same = (await op.get('sofia', `/casos/${again}`)).json().case.digest as string;
    await op.post('sofia', `/casos/${again}/decision`, { decision: 'approve', digest: same });
    // liveness_failed: rejected by beto 4 h after opening.
    h.t.clock.advance(2 * HOUR);
    const second = (await op.post('beto', '/casos/tomar')).json().caseId as string;
    await op.get('beto', `/casos/${second}`);
    await op.post('beto', `/casos/${second}/decision`, { decision: 'reject', reason: 'other' });
    await op.post('beto', '/codigos', { code: 'AAAA-AAAA' });

    const report = await buildReport(h.t.ctx.db, reportRange('2025-03-03', '2025-03-03')!);
    expect(report.assisted).toEqual({
      opened: 3,
      byTrigger: [
        { trigger: 'face_mismatch', kind: 'review', count: 1 },
        { trigger: 'liveness_failed', kind: 'review', count: 1 },
        { trigger: 'patient_choice', kind: 'centro', count: 1 },
      ],
      outcomes: [
        { status: 'approved', count: 1 },
        { status: 'open', count: 1 },
        { status: 'rejected', count: 1 },
      ],
      decision: expect.objectContaining({ n: 2 }),
      refusalsApproved: [{ trigger: 'face_mismatch', count: 1 }],
      looks: [
        { operator: 'ana', cases: 1, views: 1, images: 2, lookups: 0, missedLookups: 0 },
        { operator: 'beto', cases: 1, views: 1, images: 0, lookups: 1, missedLookups: 1 },
        { operator: 'sofia', cases: 1, views: 1, images: 0, lookups: 0, missedLookups: 0 },
      ],
    });
    // Opened about 2 s apart; decided at +2 h and +4 h (percentile_cont interpolates).
    expect(report.assisted.decision.median! / HOUR).toBeCloseTo(3, 1);
    expect(report.assisted.decision.p90! / HOUR).toBeCloseTo(3.8, 1);

    const text = reportText(report);
    expect(text).toContain('## Verificación asistida');
    expect(text).toMatch(/Rostros distintos\s+Revisión por una persona\s+1/);
    expect(text).toMatch(/ana\s+1\s+1\s+2\s+0\s+0/);
    const html = reportHtml(report, new Date(h.t.clock.now()));
    expect(html).toContain('<h2 id="asistida">Verificación asistida</h2>');
    expect(html).toContain('<caption>Miradas por operador (registro de auditoría)</caption>');
    for (const personal of ['GONZÁLEZ', '4567890', '0981000001']) {
      expect(text).not.toContain(personal);
      expect(html).not.toContain(personal);
    }
  });
});

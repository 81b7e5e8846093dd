import { randomUUID } from 'node:crypto';
import AdmZip from 'adm-zip';
import { describe, expect, it } from 'vitest';
import { SUMMARY_WORDS_SHARED_WITH_PAGE } from '../../server/my-data/download-html';
import { upsertPatient } from '../../server/patients/service';
import { myData } from '../../src/copy/es.myData';
import { useTestApp } from './helpers';
import { ANA, loginAs } from './my-data-patients';

/**
 * Issue 45 item 2: resumen.html says a verification's state and who decided it in words, from the
 * contract's lists (KYC_SESSION_STATUSES, KYC_DECIDERS), not as the engine's codes.
 */
const h = useTestApp();

describe("the summary's identity checks in words (issue 45 item 2)", () => {
  it('states, deciders and the known reason are words; no code is printed', async () => {
    const t = h.t;
    const ana = (await upsertPatient(t.ctx, ANA)).id;
    const sessions = [
      { decider: 'blink', status: 'rejected', reason: 'case_opened' },
      { decider: 'operator', status: 'completed', reason: null },
    ];
    for (const [i, s] of sessions.entries()) {
      const id = randomUUID();
      await t.ctx.db.query(
        `INSERT INTO kyc_sessions (id, decider, status, reject_reason, liveness_state, created_at, expires_at)
         VALUES ($1, $2, $3, $4, '{}', $5, $5)`,
        [id, s.decider, s.status, s.reason, new Date(t.clock.now() + i * 1000)],
      );
      await t.ctx.db.query(
        'INSERT INTO onboarding_registrations (session_id, patient_id, created_at) VALUES ($1, $2, now())',
        [id, ana],
      );
    }
    const sid = (await loginAs(t, ANA))!;
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/mis-datos/descarga',
      cookies: { sid },
    });
    const file = await t.app.inject({
      method: 'GET',
      url: `/api/mis-datos/descarga?t=${encodeURIComponent(asked.json().token)}`,
      cookies: { sid },
    });
    const html = new AdmZip(file.rawPayload).readAsText('resumen.html');
    const checks = html.slice(html.indexOf('id="verificaciones"'));
    const cells = [...checks.matchAll(/<td>([^<]*)<\/td>/g)].map((m) => m[1]);
    expect(cells).toEqual(
      expect.arrayContaining([
        'Rechazada',
        'El sistema (selfie con parpadeos)',
        'Pasó a que la revise una persona',
        'Completada',
        'Una persona del servicio',
      ]),
    );
    for (const code of ['blink', 'operator', 'rejected', 'completed', 'case_opened'])
      expect(cells).not.toContain(code);
  });

  it("says the fields, their sources and 'Quién vio' in the page's own words (written twice: the server cannot import the app's copy)", () => {
    const { fields, sources, kinds, failedKinds } = myData;
    expect(SUMMARY_WORDS_SHARED_WITH_PAGE).toEqual({ fields, sources, kinds, failedKinds });
  });
});

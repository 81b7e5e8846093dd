import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import AdmZip from 'adm-zip';
import { describe, expect, it } from 'vitest';
import { myDataResponse } from '../../contract/my-data';
import { downloadResponse } from '../../contract/my-data-download';
import { onboardingPaths } from '../../contract/onboarding';
import { PRIVACY_VERSION, TERMS_OUTDATED, TERMS_VERSION } from '../../contract/terms';
import { upsertPatient } from '../../server/patients/service';
import { ID_DATA, useCaseApps } from './cases-fixtures';
import { TERMS_ACCEPTED } from './helpers';
import { loginAs } from './my-data-patients';

/**
 * Issue 45 item 1: which version of the terms and of the privacy notice a patient accepted, and
 * when, recorded on the patient at registration (the server's versions, contract/terms.ts), shown in
 * Mis datos and in the download; a page that showed other terms is refused.
 */
describe('the terms accepted at registration (issue 45 item 1)', () => {
  const { h, kyc, p, sms } = useCaseApps();
  const PIN = '482915';
  const PHONE = '0981123456';

  async function session() {
    const sid = await loginAs(h.t, {
      numero_documento: ID_DATA.DocumentNumber,
      pin: PIN,
      nombre: '',
      apellido: '',
      celular: PHONE,
    });
    expect(sid).toBeDefined();
    return sid!;
  }

  it('records the versions and the time on the patient; Mis datos and the download show them', async () => {
    const acceptedAt = new Date(h.t.clock.now()).toISOString();
    const reg = await p.registration(PHONE, null);
    h.t.clock.advance(60_000);
    kyc.stages.set(reg.sessionId, { stage: 'documentRead', idData: ID_DATA });
    expect((await p.register(reg)).statusCode).toBe(200);
    // The draft that held the acceptance goes (a new registration of the mobile, its expiry): the
    // patient keeps it.
    await h.t.ctx.db.query('DELETE FROM registration_drafts');

    const sid = await session();
    const mine = myDataResponse.parse(
      (await h.t.app.inject({ method: 'GET', url: '/api/mis-datos', cookies: { sid } })).json(),
    );
    expect(mine.terms).toEqual({
      acceptedAt,
      version: TERMS_VERSION,
      privacyVersion: PRIVACY_VERSION,
    });

    const asked = downloadResponse.parse(
      (
        await h.t.app.inject({ method: 'POST', url: '/api/mis-datos/descarga', cookies: { sid } })
      ).json(),
    );
    if (asked.status !== 'ready') throw new Error('not ready');
    const file = await h.t.app.inject({
      method: 'GET',
      url: `/api/mis-datos/descarga?t=${encodeURIComponent(asked.token)}`,
      cookies: { sid },
    });
    const zip = new AdmZip(file.rawPayload);
    const json = JSON.parse(zip.readAsText('datos.json'));
    expect(json.consents.terms).toEqual(mine.terms);
    const html = zip.readAsText('resumen.html');
    expect(html).toContain(`términos: versión ${TERMS_VERSION}`);
    expect(html).toContain(`privacidad: versión ${PRIVACY_VERSION}`);
  });

  it('a patient registered before the versions were recorded: unknown (null)', async () => {
    await upsertPatient(h.t.ctx, {
      numero_documento: ID_DATA.DocumentNumber,
      pin: PIN,
      nombre: 'MARÍA JOSÉ',
      apellido: 'GONZÁLEZ BENÍTEZ',
      celular: PHONE,
    });
    const sid = await session();
    const mine = myDataResponse.parse(
      (await h.t.app.inject({ method: 'GET', url: '/api/mis-datos', cookies: { sid } })).json(),
    );
    expect(mine.terms).toEqual({ acceptedAt: null, version: null, privacyVersion: null });
  });

  it('migration 039 keeps an earlier patient’s acceptance time from their draft, the versions unknown', async () => {
    const { id } = await upsertPatient(h.t.ctx, {
      numero_documento: ID_DATA.DocumentNumber,
      pin: PIN,
      nombre: 'MARÍA JOSÉ',
      apellido: 'GONZÁLEZ BENÍTEZ',
      celular: PHONE,
    });
    const kycSession = randomUUID();
    const accepted = new Date('2026-10-02T13:05:00.000Z');
    await h.t.ctx.db.query(
      `INSERT INTO registration_drafts (id, celular, terms_accepted_at, kyc_session_id, created_at, updated_at, expires_at, completed_at)
       VALUES ($1, $2, $3, $4, $3, $3, $3, $3)`,
      [randomUUID(), PHONE, accepted, kycSession],
    );
    await h.t.ctx.db.query(
      'INSERT INTO onboarding_registrations (session_id, patient_id, created_at) VALUES ($1, $2, $3)',
      [kycSession, id, accepted],
    );
    // The migration's own backfill statement, run again over this patient (made after it ran).
    const sql = await readFile(
      new URL('../../server/db/migrations/039_terms_version_download_digest.sql', import.meta.url),
      'utf8',
    );
    const backfill = sql
      .split(/;\s*\n/)
      .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
      .find((s) => s.startsWith('UPDATE patients'))!;
    await h.t.ctx.db.query(backfill);
    const sid = await session();
    const mine = myDataResponse.parse(
      (await h.t.app.inject({ method: 'GET', url: '/api/mis-datos', cookies: { sid } })).json(),
    );
    expect(mine.terms).toEqual({
      acceptedAt: accepted.toISOString(),
      version: null,
      privacyVersion: null,
    });
  });

  it('a page that showed other terms (or said none) is refused in Spanish, and nothing is kept', async () => {
    const reg = await p.registration(PHONE, null);
    const stale = [
      { ...TERMS_ACCEPTED, termsVersion: '2025-01-01' },
      { ...TERMS_ACCEPTED, privacyVersion: '2025-01-01' },
      { termsAccepted: true },
    ];
    // Other registrations (other mobiles) whose PIN step sends what an older page showed.
    for (const [i, terms] of stale.entries()) {
      const phone = `098100000${i}`;
      h.t.clock.advance(31_000);
      expect((await p.post(onboardingPaths.start, { phone })).statusCode).toBe(200);
      const token = (
        await p.post(onboardingPaths.validateOtp, { celular: phone, otp: sms.lastCode(phone) })
      ).json().registration.token as string;
      const res = await p.post(onboardingPaths.savePin, {
        registrationToken: token,
        pin: PIN,
        email: null,
        ...terms,
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        success: false,
        message: expect.stringMatching(/Actualizamos los términos.*Volvé a cargar la página/),
        reason: TERMS_OUTDATED,
      });
      const { rows } = await h.t.ctx.db.query(
        `SELECT pin_hash, terms_accepted_at, terms_version FROM registration_drafts WHERE celular = $1`,
        [phone],
      );
      expect(rows).toEqual([{ pin_hash: null, terms_accepted_at: null, terms_version: null }]);
    }
    // The one that sent the versions in force kept them.
    const { rows } = await h.t.ctx.db.query(
      'SELECT terms_version, privacy_version FROM registration_drafts WHERE id IN (SELECT draft_id FROM registration_tokens WHERE kind = $1) AND celular = $2',
      ['device', reg.phone],
    );
    expect(rows).toEqual([{ terms_version: TERMS_VERSION, privacy_version: PRIVACY_VERSION }]);
  });
});

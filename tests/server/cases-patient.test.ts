import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CENTRE_CODE_ALPHABET,
  caseStatusResponse,
  centresResponse,
  formatCentreCode,
  openCaseResponse,
} from '../../contract/cases';
import { onboardingPaths } from '../../contract/onboarding';
import { loadCasesSettings, loadCentres } from '../../server/cases/config';
import { claimNext } from '../../server/cases/operator';
import { caseSealer } from '../../server/cases/seal';
import { ConfigError } from '../../server/env';
import { earlierKycSessionsOf } from '../../server/onboarding/draft-case';
import { auditRows, CaseKyc, evidence, ID_DATA, jpeg, OPERATORS, patient } from './cases-fixtures';
import { MemorySms, useTestApp } from './helpers';

/**
 * Assisted verification, the patient's side (issue 30): opening a case (review or centro), its
 * status, the centres, and what a case does to the registration. PGlite, and PostgreSQL in the
 * PostgreSQL tier (DB-neutral).
 */

const sms = new MemorySms();
const kyc = new CaseKyc();
const h = useTestApp({ deps: { sms, kyc } });
const p = patient(() => h.t, sms, kyc);
const HOUR = 3_600_000;

async function caseRow() {
  const { rows } = await h.t.ctx.db.query<Record<string, unknown>>('SELECT * FROM cases');
  return rows;
}

describe('opening a case', () => {
  it('a registration remembers the last 5 sessions it replaced, newest first', async () => {
    kyc.reset();
    const { token, sessionId } = await p.registration('0981123457');
    for (const n of [1, 2, 3, 4, 5, 6]) {
      const bind = await p.post(onboardingPaths.bindKyc, {
        registrationToken: token,
        sessionId: `retry-${n}`,
      });
      expect(bind.statusCode).toBe(200);
    }
    // Binding the current one again adds nothing.
    await p.post(onboardingPaths.bindKyc, { registrationToken: token, sessionId: 'retry-6' });
    const { rows } = await h.t.ctx.db.query<{ id: string }>(
      "SELECT id::text AS id FROM registration_drafts WHERE celular = '0981123457'",
    );
    expect(await earlierKycSessionsOf(h.t.ctx.db, rows[0]!.id)).toEqual([
      'retry-5',
      'retry-4',
      'retry-3',
      'retry-2',
      'retry-1',
    ]);
    expect(sessionId).toBe('kyc-0981123457');
  });

  it("after 'Reintentar' (a new session in place of the refused one) the case carries the earlier attempt's evidence (issue 43 item 2)", async () => {
    kyc.reset();
    // The first attempt: faces that differ, everything captured.
    const first = evidence({ reasons: ['face_mismatch'], faceSimilarity: 0.2 });
    const { token, sessionId, phone } = await p.registration('0981123456', first);
    // 'Reintentar': a new session bound in its place, nothing captured yet (a row of nulls).
    const empty = evidence({
      selfie: null,
      front: null,
      back: null,
      portrait: null,
      idData: null,
      reasons: [],
      faceSimilarity: null,
      faceThreshold: null,
      attempts: { liveness: 0, scans: 0 },
      selfieEmbedding: null,
      portraitEmbedding: null,
      signals: {},
    });
    const bind = await p.post(onboardingPaths.bindKyc, {
      registrationToken: token,
      sessionId: 'kyc-retry',
    });
    expect(bind.statusCode).toBe(200);
    kyc.evidence.set('kyc-retry', empty);
    // Leaving and resuming, then asking for a person.
    const resumed = await p.resume(phone);
    const res = await p.openCase(resumed.token, { trigger: 'patient_choice', step: 'selfie' });
    expect(res.statusCode).toBe(200);
    const [row] = await caseRow();
    const id = row!.id as string;
    const sealer = caseSealer(h.t.ctx);
    expect(sealer.open(id, 'selfie', row!.selfie as Uint8Array)).toEqual(jpeg('selfie'));
    expect(sealer.open(id, 'front', row!.front as Uint8Array)).toEqual(jpeg('front'));
    expect(sealer.openJson(id, 'fields', row!.fields as Uint8Array)).toEqual(ID_DATA);
    expect(row).toMatchObject({
      kyc_session_id: 'kyc-retry',
      // The engine's refusal names the case, whatever the browser asked.
      trigger: 'face_mismatch',
      engine_reasons: ['face_mismatch'],
      face_similarity: 0.2,
      attempts_liveness: 1,
      attempts_scans: 2,
    });
    // Both sessions handed over: no face description left in either.
    expect(kyc.evidence.get(sessionId)!.selfieEmbedding).toBeNull();
    expect(kyc.evidence.get('kyc-retry')!.selfieEmbedding).toBeNull();
  });

  it("'Que lo revise una persona': the case answers when to expect an answer and keeps the evidence sealed", async () => {
    kyc.reset();
    const { token } = await p.registration();
    const res = await p.openCase(token);
    expect(res.statusCode).toBe(200);
    const body = openCaseResponse.parse(res.json());
    const opened = new Date(h.t.clock.now()).toISOString();
    expect(body.case).toEqual({
      kind: 'review',
      status: 'open',
      trigger: 'face_mismatch',
      openedAt: opened,
      expectedBy: new Date(h.t.clock.now() + 48 * HOUR).toISOString(),
    });

    const [row] = await caseRow();
    const id = row!.id as string;
    // Sealed at rest: no image bytes nor field values in clear, and each part opens only in its place.
    for (const part of ['selfie', 'portrait', 'front', 'back', 'fields'] as const) {
      const sealed = Buffer.from(row![part] as Uint8Array);
      expect(sealed.includes(Buffer.from('jpeg:'))).toBe(false);
      expect(sealed.includes(Buffer.from('GONZÁLEZ'))).toBe(false);
    }
    const sealer = caseSealer(h.t.ctx);
    expect(sealer.open(id, 'front', row!.front as Uint8Array)).toEqual(jpeg('front'));
    expect(sealer.openJson(id, 'fields', row!.fields as Uint8Array)).toEqual(ID_DATA);
    expect(() => sealer.open(id, 'back', row!.front as Uint8Array)).toThrow();
    expect(row).toMatchObject({
      engine_reasons: ['mrz_unreadable'],
      engine_signals: { virtual_camera: 1 },
      face_similarity: 0.31,
      attempts_liveness: 1,
      attempts_scans: 2,
      code: null,
    });
    expect(await auditRows(h.t.ctx)).toEqual([
      {
        case_id: id,
        operator_usuario: null,
        action: 'open',
        detail: {
          kind: 'review',
          trigger: 'face_mismatch',
          step: 'front',
          supervised: true,
          evidence: ['selfie', 'portrait', 'front', 'back'],
        },
      },
    ]);
  });

  it("'Verificar en un centro de salud': a code read aloud, its deadline, and an SMS with nothing else", async () => {
    kyc.reset();
    const { token, phone } = await p.registration();
    const res = await p.openCase(token, { kind: 'centro', trigger: 'no_camera', step: 'selfie' });
    expect(res.statusCode).toBe(200);
    const { case: opened } = openCaseResponse.parse(res.json());
    expect(opened.code).toMatch(new RegExp(`^[${CENTRE_CODE_ALPHABET}]{8}$`));
    expect(opened.expectedBy).toBe(new Date(h.t.clock.now() + 30 * 24 * HOUR).toISOString());
    const message = sms.sent.filter((s) => s.purpose === 'case_code');
    expect(message).toHaveLength(1);
    expect(message[0]!.to).toBe(phone);
    expect(message[0]!.body).toContain(formatCentreCode(opened.code!));
    expect(message[0]!.body).toContain('02/04/2025'); // 30 days after 2025-03-03, Paraguay's day
    for (const personal of ['GONZÁLEZ', 'MARÍA', '4567890', '1990'])
      expect(message[0]!.body).not.toContain(personal);
  });

  it("the engine's refusal, not the browser's trigger, decides supervision", async () => {
    // The session was refused for faces that differ; the browser says the patient chose.
    const { token } = await p.registration('0981123456', evidence({ reasons: ['face_mismatch'] }));
    const opened = await p.openCase(token, { trigger: 'patient_choice' });
    expect(opened.json().case.trigger).toBe('face_mismatch');
    // Without such a refusal the browser's trigger stands.
    const other = await p.registration('0981123457', evidence({ reasons: ['mrz_unreadable'] }));
    expect((await p.openCase(other.token, { trigger: 'patient_choice' })).json().case.trigger).toBe(
      'patient_choice',
    );
  });

  it('two opens at once make one case; opening again answers the same case', async () => {
    kyc.reset();
    const { token } = await p.registration();
    const [a, b] = await Promise.all([p.openCase(token), p.openCase(token)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json().case).toEqual(b.json().case);
    expect(await caseRow()).toHaveLength(1);
    expect((await p.openCase(token)).json().case).toEqual(a.json().case);
    expect(await caseRow()).toHaveLength(1);
  });

  it('a review case nobody took becomes a centro case; once taken it cannot', async () => {
    kyc.reset();
    const first = await p.registration('0981000001');
    await p.openCase(first.token);
    const changed = await p.openCase(first.token, { kind: 'centro' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().case).toMatchObject({ kind: 'centro', status: 'open' });
    expect(changed.json().case.code).toMatch(/^[A-Z0-9]{8}$/);
    expect(sms.sent.filter((s) => s.purpose === 'case_code')).toHaveLength(1);

    const second = await p.registration('0981000002');
    await p.openCase(second.token);
    expect(await claimNext(h.t.ctx, OPERATORS.ana)).not.toBeNull();
    const taken = await p.openCase(second.token, { kind: 'centro' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({
      success: false,
      message: 'Una persona ya está revisando tu caso. Esperá su respuesta: te avisamos por SMS.',
      reason: 'case_taken',
    });
  });

  it('a registration without a KYC session (no camera) opens a case with no evidence', async () => {
    kyc.reset();
    const { token } = await p.registration('0981000003', null);
    const res = await p.openCase(token, { kind: 'centro', trigger: 'no_camera', step: 'selfie' });
    expect(res.statusCode).toBe(200);
    const [row] = await caseRow();
    expect(row).toMatchObject({ selfie: null, front: null, fields: null, engine_reasons: [] });
  });

  it('refuses bad input and unknown registrations in Spanish (4xx)', async () => {
    kyc.reset();
    const { token } = await p.registration();
    const bad = await p.openCase(token, { kind: 'otro' as never });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      success: false,
      message: 'Los datos enviados no son válidos. Revisalos e intentá de nuevo.',
    });
    const unknown = await p.openCase('x'.repeat(43));
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toMatch(/^Tu registro venció/);
    const malformed = await p.caseStatus('corto');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toMatch(/^Tu registro venció/);
  });

  it('needs the PIN first', async () => {
    kyc.reset();
    await p.post(onboardingPaths.start, { phone: '0981000004' });
    const proved = await p.post(onboardingPaths.validateOtp, {
      celular: '0981000004',
      otp: sms.lastCode('0981000004'),
    });
    const res = await p.openCase(proved.json().registration.token);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Primero elegí tu PIN.');
  });
});

describe('the case and the registration', () => {
  it('the status answers null, then the case', async () => {
    kyc.reset();
    const { token } = await p.registration();
    expect(caseStatusResponse.parse((await p.caseStatus(token)).json())).toEqual({
      success: true,
      case: null,
    });
    await p.openCase(token);
    expect((await p.caseStatus(token)).json().case).toMatchObject({
      kind: 'review',
      status: 'open',
    });
  });

  it('an open case keeps the registration alive past the resume window and resumes at the case', async () => {
    kyc.reset();
    const { token } = await p.registration();
    await p.openCase(token);
    h.t.clock.advance(10 * 24 * HOUR);
    // The device's token still names it (24 h would have ended it).
    expect((await p.caseStatus(token)).statusCode).toBe(200);
    const resumed = await p.resume();
    expect(resumed).toMatchObject({
      resumeAt: 'case',
      sessionId: null,
      case: { kind: 'review', status: 'open' },
    });
  });

  it('registering while a case is open is refused (409, Spanish)', async () => {
    kyc.reset();
    const { token, sessionId, phone } = await p.registration();
    kyc.stages.set(sessionId, { stage: 'documentRead', idData: ID_DATA });
    await p.openCase(token);
    const res = await p.post(onboardingPaths.register, {
      registrationToken: token,
      phone,
      email: null,
      pin: '482915',
      sessionId,
      supplementaryData: { tipoSangre: 'O+', direccion: '', departamento: '11', ciudad_id: '1101' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      success: false,
      message:
        'Tenés un caso de verificación abierto. Esperá la respuesta antes de terminar el registro.',
      reason: 'case_open',
    });
    const { rows } = await h.t.ctx.db.query('SELECT 1 FROM patients');
    expect(rows).toHaveLength(0);
  });
});

describe('the health centres', () => {
  it('GET /centros answers the configured centres by department', async () => {
    const res = await h.t.app.inject({ method: 'GET', url: '/api/onboarding/centros' });
    expect(res.statusCode).toBe(200);
    const centres = centresResponse.parse(res.json());
    expect(centres.length).toBeGreaterThan(0);
    expect(centres.every((d) => d.centros.length > 0)).toBe(true);
  });

  it('a centres file that is not valid stops the start (CASES_CENTRES_FILE)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'centros-'));
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ departamentos: [{ departamento: 'Central' }] }));
    expect(() => loadCasesSettings({ CASES_CENTRES_FILE: bad })).toThrow(ConfigError);
    writeFileSync(bad, '{');
    expect(() => loadCentres(bad)).toThrow(/cannot be read as JSON/);
    const good = path.join(dir, 'good.json');
    const centre = { nombre: 'H', direccion: 'D', ciudad: 'C', horario: 'L a V' };
    writeFileSync(
      good,
      JSON.stringify({
        departamentos: [
          { departamento: 'Central', centros: [centre] },
          { departamento: 'Boquerón', centros: [] },
        ],
      }),
    );
    // Departments without a centre are left out.
    expect(loadCentres(good)).toEqual([{ departamento: 'Central', centros: [centre] }]);
  });
});

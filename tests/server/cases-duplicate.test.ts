import { describe, expect, it } from 'vitest';
import { caseStatusResponse } from '../../contract/cases';
import { onboardingPaths, type IdData } from '../../contract/onboarding';
import { caseDetailResponse, queueResponse } from '../../contract/operators';
import {
  auditRows,
  evidence,
  ID_DATA,
  OPERATORS,
  useCaseApps,
  type OperatorName,
} from './cases-fixtures';

/**
 * Duplicates at registration, to a person (issue 44 item 3): a registration whose verified face is
 * an enrolled patient's with another cédula opens a 'posible duplicado' case (kind 'duplicate') for
 * a supervisor, and waits for it with a plain Spanish message; never an automatic refusal. The same
 * face with the same cédula goes to PIN recovery. The engine's exact search is
 * tests/server/face-duplicates.test.ts; here the KYC store says what it found. PGlite, and
 * PostgreSQL in the PostgreSQL tier.
 */

const { kyc, h, p, op } = useCaseApps();
const SUPPLEMENTARY = { tipoSangre: 'O+', direccion: '', departamento: '11', ciudad_id: '1101' };
const OTHER: IdData = { ...ID_DATA, FullName: 'ROJAS PAEZ ANA', DocumentNumber: '5123478' };
const PHONE_A = '0981000001';
const PHONE_B = '0981000002';

/** A registration through to register with this card's data: the answer, the token, the session. */
async function registerWith(phone: string, id: IdData, prepare?: (sessionId: string) => void) {
  const reg = await p.registration(phone, evidence({ idData: id, reasons: [] }));
  kyc.stages.set(reg.sessionId, { stage: 'documentRead', idData: id });
  prepare?.(reg.sessionId);
  const res = await p.post(onboardingPaths.register, {
    registrationToken: reg.token,
    phone,
    email: null,
    pin: '482915',
    sessionId: reg.sessionId,
    supplementaryData: SUPPLEMENTARY,
  });
  return { res, ...reg };
}

/** Patient A, registered (and enrolled): its id. */
async function registeredA(): Promise<string> {
  const { res } = await registerWith(PHONE_A, ID_DATA);
  expect(res.statusCode).toBe(200);
  const { rows } = await h.t.ctx.db.query<{ id: string }>(
    'SELECT id::text AS id FROM patients WHERE numero_documento = $1',
    [ID_DATA.DocumentNumber],
  );
  return rows[0]!.id;
}

/** Patient B registers with A's face and another cédula: the answer, B's registration, its case id. */
async function duplicateOfA(aId: string) {
  const b = await registerWith(PHONE_B, OTHER, (sessionId) =>
    kyc.duplicates.set(sessionId, { patientId: aId, similarity: 0.91, threshold: 0.7 }),
  );
  const { rows } = await h.t.ctx.db.query<{ id: string }>(
    `SELECT c.id::text AS id FROM cases c JOIN registration_drafts d ON d.id = c.draft_id
      WHERE d.celular = $1 ORDER BY c.opened_at DESC LIMIT 1`,
    [PHONE_B],
  );
  return { ...b, caseId: rows[0]?.id ?? null };
}

async function detailOf(name: OperatorName, id: string) {
  const res = await op.get(name, `/casos/${id}`);
  expect(res.statusCode).toBe(200);
  return caseDetailResponse.parse(res.json()).case;
}

const claim = async (name: OperatorName) =>
  (await op.post(name, '/casos/tomar')).json().caseId as string | null;

describe('a face already enrolled with another cédula', () => {
  it('opens a posible duplicado case, and registration waits with a Spanish message (409, not a refusal)', async () => {
    const aId = await registeredA();
    const b = await duplicateOfA(aId);
    expect(b.res.statusCode).toBe(409);
    const body = b.res.json();
    expect(body).toMatchObject({ success: false, reason: 'possible_duplicate' });
    expect(body.message).toMatch(/una persona del servicio tiene que revisar/);
    expect(body.message).toMatch(/te avisamos por SMS hasta el \d{2}\/\d{2}\/\d{4}/);
    // Nothing about the other patient reaches the registering one.
    expect(body.message).not.toMatch(new RegExp(ID_DATA.DocumentNumber));
    expect(body.message).not.toMatch(/GONZÁLEZ/);
    expect(b.caseId).not.toBeNull();
    // B is not registered (nor enrolled); its KYC search left no one out.
    const { rows } = await h.t.ctx.db.query('SELECT 1 FROM patients WHERE celular = $1', [PHONE_B]);
    expect(rows).toEqual([]);
    expect(kyc.duplicateSearches.at(-1)).toEqual({ sessionId: b.sessionId, exclude: [] });
    const { rows: cases } = await h.t.ctx.db.query<{
      kind: string;
      trigger: string;
      duplicate_of: string;
      duplicate_similarity: number;
      duplicate_threshold: number;
      duplicate: Uint8Array | null;
    }>(
      `SELECT kind, trigger, duplicate_of::text AS duplicate_of, duplicate_similarity,
              duplicate_threshold, duplicate FROM cases WHERE id = $1`,
      [b.caseId],
    );
    expect(cases[0]).toMatchObject({
      kind: 'duplicate',
      trigger: 'possible_duplicate',
      duplicate_of: aId,
      duplicate_similarity: 0.91,
      duplicate_threshold: 0.7,
    });
    // The other patient's record is sealed on the case, not in plain text.
    expect(Buffer.from(cases[0]!.duplicate!).toString('latin1')).not.toContain(
      ID_DATA.DocumentNumber,
    );
    // Audited, with the scores only.
    const opened = (await auditRows(h.t.ctx)).find((r) => r.action === 'open')!;
    expect(opened.detail).toMatchObject({ kind: 'duplicate', similarity: 0.91, threshold: 0.7 });
    expect(JSON.stringify(opened.detail)).not.toContain(ID_DATA.DocumentNumber);
  });

  it('the patient sees a person reviewing, nothing of the other patient; registering again waits', async () => {
    const aId = await registeredA();
    const b = await duplicateOfA(aId);
    const status = caseStatusResponse.parse((await p.caseStatus(b.token)).json());
    expect(status.case).toMatchObject({ kind: 'review', status: 'open' });
    expect(JSON.stringify(status)).not.toContain(ID_DATA.DocumentNumber);
    expect(JSON.stringify(status)).not.toContain('duplicate');
    const resumed = await p.resume(PHONE_B);
    expect(resumed.resumeAt).toBe('case');
    const again = await p.register({ token: resumed.token, sessionId: b.sessionId }, PHONE_B);
    expect(again.statusCode).toBe(409);
    // The patient cannot turn it into a health-centre case, nor open one of this kind.
    expect((await p.openCase(resumed.token, { kind: 'centro' })).json().case).toMatchObject({
      kind: 'review',
      status: 'open',
    });
    const { rows } = await h.t.ctx.db.query('SELECT kind FROM cases WHERE id = $1', [b.caseId]);
    expect(rows).toEqual([{ kind: 'duplicate' }]);
    expect((await p.openCase(resumed.token, { trigger: 'possible_duplicate' })).statusCode).toBe(
      400,
    );
  });

  it('only a supervisor sees, takes and decides it; the supervisor reads both records', async () => {
    const aId = await registeredA();
    const b = await duplicateOfA(aId);
    const forRevisor = queueResponse.parse((await op.get('ana', '/casos')).json());
    expect(forRevisor.cases).toEqual([]);
    expect(await claim('ana')).toBeNull();
    const forSupervisor = queueResponse.parse((await op.get('sofia', '/casos')).json());
    expect(forSupervisor.cases).toMatchObject([
      { kind: 'duplicate', trigger: 'possible_duplicate' },
    ]);
    expect(await claim('sofia')).toBe(b.caseId);
    const d = await detailOf('sofia', b.caseId!);
    expect(d).toMatchObject({
      kind: 'duplicate',
      approvalRule: 'one',
      fields: { DocumentNumber: OTHER.DocumentNumber },
      images: expect.arrayContaining(['selfie', 'front', 'back']),
      duplicate: {
        documento: ID_DATA.DocumentNumber,
        nombre: 'GONZÁLEZ BENÍTEZ MARÍA JOSÉ',
        registeredAt: expect.any(String),
        similarity: 0.91,
        threshold: 0.7,
      },
    });
    // Not a step repeated.
    const repeat = await op.post('sofia', `/casos/${b.caseId}/decision`, {
      decision: 'repeat',
      step: 'selfie',
    });
    expect(repeat.statusCode).toBe(409);
    // A revisor holding it anyway (a claim written by hand) may not decide it.
    await h.t.ctx.db.query(
      `UPDATE cases SET claimed_by = $2, claimed_usuario = 'ana' WHERE id = $1`,
      [b.caseId, OPERATORS.ana.id],
    );
    const byRevisor = await op.post('ana', `/casos/${b.caseId}/decision`, {
      decision: 'reject',
      reason: 'duplicate_person',
    });
    expect(byRevisor.statusCode).toBe(403);
    expect(byRevisor.json().message).toMatch(/supervisor/);
    const { rows } = await h.t.ctx.db.query<{ action: string; status: string }>(
      `SELECT a.action, c.status FROM case_audit a JOIN cases c ON c.id = a.case_id
        WHERE a.case_id = $1 ORDER BY a.id`,
      [b.caseId],
    );
    expect(rows).toEqual([
      { action: 'open', status: 'open' },
      { action: 'claim', status: 'open' },
      { action: 'view', status: 'open' },
    ]);
  });

  it('approved: the registration goes on as a distinct person (that patient left out next time)', async () => {
    const aId = await registeredA();
    const b = await duplicateOfA(aId);
    expect(await claim('sofia')).toBe(b.caseId);
    const { digest } = await detailOf('sofia', b.caseId!);
    const approved = await op.post('sofia', `/casos/${b.caseId}/decision`, {
      decision: 'approve',
      digest,
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().outcome).toBe('approved');
    const resumed = await p.resume(PHONE_B);
    expect(resumed.case).toMatchObject({ status: 'approved' });
    const done = await p.register(resumed, PHONE_B);
    expect(done.statusCode).toBe(200);
    expect(kyc.duplicateSearches.at(-1)).toEqual({
      sessionId: resumed.sessionId,
      exclude: [aId],
    });
    const { rows } = await h.t.ctx.db.query('SELECT 1 FROM patients WHERE celular = $1', [PHONE_B]);
    expect(rows).toHaveLength(1);
  });

  it('rejected, the patient is told to recover the PIN or go to a centre', async () => {
    const aId = await registeredA();
    const b = await duplicateOfA(aId);
    expect(await claim('sofia')).toBe(b.caseId);
    const rejected = await op.post('sofia', `/casos/${b.caseId}/decision`, {
      decision: 'reject',
      reason: 'duplicate_person',
    });
    expect(rejected.statusCode).toBe(200);
    const status = caseStatusResponse.parse((await p.caseStatus(b.token)).json());
    expect(status.case).toMatchObject({ status: 'rejected', rejectReason: 'duplicate_person' });
  });
});

describe('the same face with the same cédula', () => {
  it('goes to PIN recovery (409 recover_pin), not to a case', async () => {
    const aId = await registeredA();
    const again = await registerWith('0981000003', ID_DATA, () => kyc.sameFaces.add(aId));
    expect(again.res.statusCode).toBe(409);
    expect(again.res.json()).toMatchObject({ success: false, reason: 'recover_pin' });
    expect(again.res.json().message).toMatch(/recuperalo en \/recuperar-pin/);
    const { rows } = await h.t.ctx.db.query('SELECT 1 FROM cases');
    expect(rows).toEqual([]);
    // Another face with that cédula: 'El paciente ya existe', as before.
    kyc.sameFaces.clear();
    const other = await registerWith('0981000004', ID_DATA);
    expect(other.res.json().message).toMatch(/existe/);
  });
});

import { describe, expect, it } from 'vitest';
import {
  caseDetailResponse,
  CORRECTABLE_FIELDS,
  type CorrectableField,
  type FieldOrigin,
} from '../../contract/operators';
import {
  auditRows,
  DESK_EMBEDDING,
  evidence,
  ID_DATA,
  jpeg,
  SELFIE_EMBEDDING,
  useCaseApps,
  type OperatorName,
} from './cases-fixtures';

/**
 * Four-eyes bound to content (issue 42, item 1): an approval records the digest of what its
 * operator saw (the fields to register, the face to enrol, the evidence); a correction or a new
 * desk photo after it voids it; the second approval is of the same digest by another supervisor. A
 * case whose face no engine compared with a card needs the second approval, and a remote case where
 * nobody saw a card is decided only at a health centre. The probes M1 and M2 of the issue. PGlite,
 * and PostgreSQL in the PostgreSQL tier.
 */

const { kyc, h, p, op } = useCaseApps();

/** The case as the operator's page shows it (a look, audited). */
async function detailOf(name: OperatorName, id: string) {
  const res = await op.get(name, `/casos/${id}`);
  expect(res.statusCode).toBe(200);
  return caseDetailResponse.parse(res.json()).case;
}

/** 'Aprobar' as the page does it: the digest of the case it shows goes with the approval. */
async function approve(name: OperatorName, id: string) {
  const { digest } = await detailOf(name, id);
  return op.post(name, `/casos/${id}/decision`, { decision: 'approve', digest });
}

const correct = (name: OperatorName, id: string, field: string, value: string) =>
  op.post(name, `/casos/${id}/campos`, { field, value, reason: 'Así figura en la cédula' });

/** Every field's origin `all`, but those named. */
const origins = (all: FieldOrigin, over: Partial<Record<CorrectableField, FieldOrigin>> = {}) => ({
  ...Object.fromEntries(CORRECTABLE_FIELDS.map((f) => [f, all])),
  ...over,
});

/** The verified KYC sessions an approval created (none: nobody was registered). */
const verifiedSessions = () => [...kyc.stages.keys()].filter((k) => k.startsWith('verified-'));

async function statusOf(id: string) {
  const { rows } = await h.t.ctx.db.query<{ status: string; needs_supervisor: boolean }>(
    'SELECT status, needs_supervisor FROM cases WHERE id = $1',
    [id],
  );
  return rows[0]!;
}

/** A health-centre case for faces that differ, found by its code: the code. */
async function centroFaceMismatch() {
  const reg = await p.registration();
  const opened = await p.openCase(reg.token, { kind: 'centro', trigger: 'face_mismatch' });
  expect(opened.statusCode).toBe(200);
  return opened.json().case.code as string;
}

const lookUp = async (name: OperatorName, code: string) => {
  const res = await op.post(name, '/codigos', { code });
  expect(res.statusCode).toBe(200);
  return res.json().caseId as string;
};

describe('M2: the second approval cannot change what the first approved', () => {
  it('a supervisor who corrects the number and replaces the desk photo voids the first approval: her approval is a new first one', async () => {
    const code = await centroFaceMismatch();
    const id = await lookUp('ana', code);
    expect((await op.photo('ana', id, jpeg('desk-ana'))).statusCode).toBe(200);
    const first = await approve('ana', id);
    expect(first.json()).toEqual({ success: true, outcome: 'awaiting_supervisor' });
    const approvedByAna = await statusOf(id);
    expect(approvedByAna.needs_supervisor).toBe(true);

    // The supervisor who takes the second approval changes the identity, then approves.
    expect(await lookUp('sofia', code)).toBe(id);
    expect((await correct('sofia', id, 'DocumentNumber', '7654321')).statusCode).toBe(200);
    const voided = await detailOf('sofia', id);
    expect(voided.approvals).toEqual([]);
    expect(voided.needsSupervisor).toBe(false);
    expect((await op.photo('sofia', id, jpeg('desk-sofia'))).statusCode).toBe(200);
    const second = await approve('sofia', id);
    // Nobody is registered: only one person saw this identity.
    expect(second.json()).toEqual({ success: true, outcome: 'awaiting_supervisor' });
    expect(verifiedSessions()).toEqual([]);
    expect(await statusOf(id)).toEqual({ status: 'open', needs_supervisor: true });

    // The record: the first approval voided by the correction (the desk photo found none left).
    const rows = (await auditRows(h.t.ctx)).filter((r) => r.case_id === id);
    const voids = rows.filter((r) => r.action === 'void');
    expect(voids).toEqual([
      expect.objectContaining({
        operator_usuario: 'sofia',
        detail: { approvals: ['ana'], cause: 'correct' },
      }),
    ]);
    const approvals = rows.filter((r) => r.action === 'approve');
    expect(approvals.map((r) => [r.operator_usuario, r.detail.approval])).toEqual([
      ['ana', 1],
      ['sofia', 1],
    ]);
    expect(approvals[0]!.detail.digest).not.toBe(approvals[1]!.detail.digest);

    // The revisor who approved the other identity cannot give the second approval; a second
    // supervisor approves what sofia approved, and that is what is registered.
    expect((await op.post('ana', '/codigos', { code })).statusCode).toBe(403);
    expect((await op.post('sofia', '/codigos', { code })).statusCode).toBe(409);
    expect(await lookUp('tomas', code)).toBe(id);
    const seen = await detailOf('tomas', id);
    expect(seen.approvals.map((a) => [a.operator, a.digest])).toEqual([['sofia', seen.digest]]);
    expect((await approve('tomas', id)).json().outcome).toBe('approved');
    const resumed = await p.resume();
    expect(resumed.idData).toMatchObject({ ...ID_DATA, DocumentNumber: '7654321' });
    expect(kyc.embeddings.get(resumed.sessionId)).toEqual(DESK_EMBEDDING);
  });

  it('a new desk photo alone voids the approval too', async () => {
    const code = await centroFaceMismatch();
    const id = await lookUp('sofia', code);
    expect((await op.photo('sofia', id, jpeg('desk-1'))).statusCode).toBe(200);
    expect((await approve('sofia', id)).json().outcome).toBe('awaiting_supervisor');
    expect(await lookUp('tomas', code)).toBe(id);
    expect((await op.photo('tomas', id, jpeg('desk-2'))).statusCode).toBe(200);
    expect((await detailOf('tomas', id)).approvals).toEqual([]);
    expect((await approve('tomas', id)).json().outcome).toBe('awaiting_supervisor');
    expect(verifiedSessions()).toEqual([]);
    const voids = (await auditRows(h.t.ctx)).filter((r) => r.action === 'void');
    expect(voids.map((r) => r.detail)).toEqual([{ approvals: ['sofia'], cause: 'desk_photo' }]);
  });

  it('an approval of another version than the one now on the case is a Spanish 409', async () => {
    const code = await centroFaceMismatch();
    const id = await lookUp('ana', code);
    expect((await op.photo('ana', id, jpeg('desk'))).statusCode).toBe(200);
    const shown = (await detailOf('ana', id)).digest;
    expect(shown).toMatch(/^[0-9a-f]{64}$/);
    // The same case read twice has the same digest; a correction changes it.
    expect((await detailOf('ana', id)).digest).toBe(shown);
    expect((await correct('ana', id, 'FullName', 'GONZÁLEZ BENÍTEZ MARÍA JOSEFA')).statusCode).toBe(
      200,
    );
    expect((await detailOf('ana', id)).digest).not.toBe(shown);
    const stale = await op.post('ana', `/casos/${id}/decision`, {
      decision: 'approve',
      digest: shown,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({
      success: false,
      message:
        'El caso cambió desde que lo abriste (una corrección o una foto nueva). Revisalo de nuevo antes de aprobar.',
      reason: 'case_changed',
    });
    // Without a digest there is nothing approved: a 400.
    const none = await op.post('ana', `/casos/${id}/decision`, { decision: 'approve' });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toMatch(/^Revisá la decisión/);
    expect(await statusOf(id)).toEqual({ status: 'open', needs_supervisor: false });
  });

  it('the audit says which version each approval was of; the final one registers the same', async () => {
    const reg = await p.registration();
    expect((await p.openCase(reg.token, { trigger: 'face_mismatch' })).statusCode).toBe(200);
    const id = (await op.post('ana', '/casos/tomar')).json().caseId as string;
    expect((await approve('ana', id)).json().outcome).toBe('awaiting_supervisor');
    expect((await op.post('sofia', '/casos/tomar')).json().caseId).toBe(id);
    expect((await approve('sofia', id)).json().outcome).toBe('approved');
    const approvals = (await auditRows(h.t.ctx)).filter((r) => r.action === 'approve');
    expect(approvals).toHaveLength(2);
    expect(approvals[0]!.detail.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(approvals[1]!.detail.digest).toBe(approvals[0]!.detail.digest);
    expect(kyc.embeddings.get(verifiedSessions()[0]!)).toEqual(SELFIE_EMBEDDING);
  });
});

describe('M1: no approval of an identity no card supports', () => {
  /** 'No puedo completar este paso' right after the selfie: a selfie and nothing else. */
  const selfieOnly = () =>
    evidence({
      front: null,
      back: null,
      portrait: null,
      idData: null,
      reasons: [],
      faceSimilarity: null,
      faceThreshold: null,
      portraitEmbedding: null,
      attempts: { liveness: 1, scans: 0 },
    });

  it('a remote case with only a selfie: typed name and number are refused by every approver; the front can be asked again', async () => {
    const reg = await p.registration('0981123456', selfieOnly());
    expect(
      (await p.openCase(reg.token, { trigger: 'patient_choice', step: 'front' })).statusCode,
    ).toBe(200);
    const id = (await op.post('ana', '/casos/tomar')).json().caseId as string;
    const before = await detailOf('ana', id);
    expect(before.approvalRule).toBe('centre_only');
    expect(before.fieldOrigins).toEqual(origins('missing'));
    expect((await correct('ana', id, 'FullName', 'PÉREZ JUAN')).statusCode).toBe(200);
    expect((await correct('ana', id, 'DocumentNumber', '1234567')).statusCode).toBe(200);
    expect((await detailOf('ana', id)).fieldOrigins).toMatchObject({
      FullName: 'typed',
      DocumentNumber: 'typed',
      DateOfBirth: 'missing',
    });
    const refused = await approve('ana', id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      success: false,
      message:
        'Nadie vio la cédula de este caso: no se puede aprobar a distancia. Pedí que repita el frente o rechazalo para que verifique su identidad en un centro de salud.',
      reason: 'card_missing',
    });
    expect(verifiedSessions()).toEqual([]);
    // A supervisor cannot either.
    expect((await op.post('ana', `/casos/${id}/soltar`)).statusCode).toBe(200);
    expect((await op.post('sofia', '/casos/tomar')).json().caseId).toBe(id);
    expect((await approve('sofia', id)).statusCode).toBe(409);
    expect(await statusOf(id)).toEqual({ status: 'open', needs_supervisor: false });
    // What is possible: the front again, with the selfie's face (the engine then compares).
    const repeat = await op.post('sofia', `/casos/${id}/decision`, {
      decision: 'repeat',
      step: 'front',
    });
    expect(repeat.json().outcome).toBe('repeat');
    expect(kyc.live[0]!.embedding).toEqual(SELFIE_EMBEDDING);
  });

  it('a card whose portrait no engine compared with the selfie needs a second approval, by a supervisor', async () => {
    const reg = await p.registration(
      '0981123456',
      evidence({
        portrait: null,
        portraitEmbedding: null,
        faceSimilarity: null,
        faceThreshold: null,
        reasons: ['no_face_on_document'],
      }),
    );
    expect(
      (await p.openCase(reg.token, { trigger: 'no_face_on_document', step: 'front' })).statusCode,
    ).toBe(200);
    const id = (await op.post('ana', '/casos/tomar')).json().caseId as string;
    const detail = await detailOf('ana', id);
    expect(detail.approvalRule).toBe('two');
    expect(detail.fieldOrigins.FullName).toBe('read');
    expect((await approve('ana', id)).json().outcome).toBe('awaiting_supervisor');
    expect(verifiedSessions()).toEqual([]);
    expect((await op.post('beto', '/casos/tomar')).json().caseId).toBeNull();
    expect((await op.post('sofia', '/casos/tomar')).json().caseId).toBe(id);
    expect((await approve('sofia', id)).json().outcome).toBe('approved');
    expect(verifiedSessions()).toHaveLength(1);
  });

  it('a name or number typed on a remote case needs a second approval; a card the engine read and compared needs one', async () => {
    const typed = await p.registration('0981000001');
    expect((await p.openCase(typed.token, { trigger: 'document_unreadable' })).statusCode).toBe(
      200,
    );
    const id = (await op.post('ana', '/casos/tomar')).json().caseId as string;
    expect((await detailOf('ana', id)).approvalRule).toBe('one');
    expect((await correct('ana', id, 'DocumentNumber', '4567891')).statusCode).toBe(200);
    const detail = await detailOf('ana', id);
    expect(detail.approvalRule).toBe('two');
    expect(detail.fieldOrigins).toEqual(origins('read', { DocumentNumber: 'typed' }));
    expect((await approve('ana', id)).json().outcome).toBe('awaiting_supervisor');

    const read = await p.registration('0981000002');
    expect((await p.openCase(read.token, { trigger: 'document_unreadable' })).statusCode).toBe(200);
    const other = (await op.post('beto', '/casos/tomar')).json().caseId as string;
    expect(other).not.toBe(id);
    expect((await approve('beto', other)).json().outcome).toBe('approved');
  });
});

import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { caseSealer } from '../../server/cases/seal';
import { evidenceContext } from '../../server/identity/evidence';
import {
  insertSession,
  saveLivenessEvidence,
  saveLivenessProgress,
  saveScanEvidence,
} from '../../server/identity/store';
import { createSealer } from '../../server/security/sealed';
import { ID_DATA, jpeg, logInAgain, useCaseApps } from './cases-fixtures';

/**
 * L4 (issue 42 item 3): once a case copied a KYC session's evidence (sealed on the case), the
 * session keeps no face description and no fields in plaintext; the verified session an approval
 * makes keeps the approved identity and face sealed, and registration opens them. The identity
 * engine's own KYC store (server/onboarding/identity-kyc.ts) on the test's database, its sessions
 * staged through the engine's store functions. PGlite, and PostgreSQL in the PostgreSQL tier.
 */

const { h, p, op } = useCaseApps({ engineStore: true });

/** Sessions live on the database's clock: the test's clock is today, and Ana logs in today. */
beforeEach(async () => {
  h.t.clock.time = Date.now();
  await logInAgain(h.t.ctx, 'ana');
});

/** A 1024-d unit vector (the engine's face description), distinct per seed. */
function face(seed: number): number[] {
  const v = Array.from({ length: 1024 }, (_, i) => Math.sin(seed * 7.1 + i * 0.37));
  const norm = Math.hypot(...v);
  return v.map((x) => Number((x / norm).toFixed(6)));
}
const SELFIE = face(1);
const PORTRAIT = face(2);

/**
 * A KYC session as the engine leaves it after a passed selfie and a refused scan: its selfie's
 * description in kyc_sessions, the evidence (images and fields sealed, descriptions plain).
 */
async function stagedSession(): Promise<string> {
  const db = h.t.ctx.db;
  const sealer = createSealer(h.t.ctx.secrets.casesKey);
  const id = randomUUID();
  const seal = (what: Parameters<typeof evidenceContext>[1], bytes: Buffer) =>
    sealer.seal(bytes, evidenceContext(id, what));
  await insertSession(db, id, 'blink', { kind: 'test' }, 3_600_000);
  await saveLivenessProgress(db, id, {
    state: { kind: 'test' },
    frameSeq: 1,
    live: true,
    selfie: { embedding: SELFIE, photo: null },
    anchor: null,
  });
  await saveLivenessEvidence(db, id, {
    selfie: { sealed: seal('selfie', jpeg('selfie')), rank: 2, embedding: SELFIE },
    reason: null,
    attempt: true,
  });
  await saveScanEvidence(db, id, {
    front: seal('front', jpeg('front')),
    back: seal('back', jpeg('back')),
    portrait: seal('portrait', jpeg('portrait')),
    idData: seal('id_data', Buffer.from(JSON.stringify(ID_DATA))),
    reason: 'mrz_unreadable',
    similarity: 0.61,
    threshold: 0.5,
    selfieEmbedding: SELFIE,
    portraitEmbedding: PORTRAIT,
  });
  return id;
}

/** Every plaintext column of kyc_sessions and kyc_evidence that may hold a face or a field. */
async function plaintextOf(sessionId: string) {
  const { rows } = await h.t.ctx.db.query<{
    session_selfie: number[] | null;
    result: unknown;
    selfie_embedding: number[] | null;
    portrait_embedding: number[] | null;
  }>(
    `SELECT s.selfie_embedding AS session_selfie, s.result, e.selfie_embedding, e.portrait_embedding
       FROM kyc_sessions s LEFT JOIN kyc_evidence e ON e.session_id = s.id WHERE s.id = $1`,
    [sessionId],
  );
  return rows[0];
}

/** The whole of a verified session's row as text (what anyone reading the table sees). */
async function rowText(sessionId: string): Promise<string> {
  const { rows } = await h.t.ctx.db.query<{ t: string }>(
    'SELECT row_to_json(s)::text AS t FROM kyc_sessions s WHERE id = $1',
    [sessionId],
  );
  return rows[0]!.t;
}

const openCaseId = async (token: string) => {
  const res = await p.openCase(token, { trigger: 'liveness_failed' });
  expect(res.statusCode).toBe(200);
  return res.json().case;
};

describe('the evidence a case copied (L4)', () => {
  it("leaves the session without its faces' descriptions and fields in plaintext; the case has them", async () => {
    const sessionId = await stagedSession();
    expect((await plaintextOf(sessionId))!.portrait_embedding).toHaveLength(1024);
    const reg = await p.registration('0981123456', null, sessionId);
    await openCaseId(reg.token);
    expect(await plaintextOf(sessionId)).toEqual({
      session_selfie: null,
      result: null,
      selfie_embedding: null,
      portrait_embedding: null,
    });
    // The case holds them sealed, and the operator sees the case as before.
    const caseId = (await op.post('ana', '/casos/tomar')).json().caseId as string;
    const { rows } = await h.t.ctx.db.query<{ s: Uint8Array; p: Uint8Array }>(
      'SELECT selfie_embedding AS s, portrait_embedding AS p FROM cases WHERE id = $1',
      [caseId],
    );
    const sealer = caseSealer(h.t.ctx);
    expect(sealer.openJson(caseId, 'selfie_embedding', rows[0]!.s)).toEqual(SELFIE);
    expect(sealer.openJson(caseId, 'portrait_embedding', rows[0]!.p)).toEqual(PORTRAIT);
    const detail = (await op.get('ana', `/casos/${caseId}`)).json().case;
    expect(detail).toMatchObject({
      fields: ID_DATA,
      images: ['selfie', 'portrait', 'front', 'back'],
      faceSimilarity: 0.61,
    });
  });

  it('a later case of the same session (rejected, then a health centre) still gets the faces', async () => {
    const sessionId = await stagedSession();
    const reg = await p.registration('0981123456', null, sessionId);
    await openCaseId(reg.token);
    const first = (await op.post('ana', '/casos/tomar')).json().caseId as string;
    await op.post('ana', `/casos/${first}/decision`, { decision: 'reject', reason: 'other' });
    const centro = await p.openCase(reg.token, { kind: 'centro' });
    expect(centro.statusCode).toBe(200);
    const { rows } = await h.t.ctx.db.query<{ id: string; s: Uint8Array; p: Uint8Array }>(
      `SELECT id::text AS id, selfie_embedding AS s, portrait_embedding AS p FROM cases
        WHERE kind = 'centro'`,
    );
    const sealer = caseSealer(h.t.ctx);
    expect(sealer.openJson(rows[0]!.id, 'selfie_embedding', rows[0]!.s)).toEqual(SELFIE);
    expect(sealer.openJson(rows[0]!.id, 'portrait_embedding', rows[0]!.p)).toEqual(PORTRAIT);
  });

  it('an approval keeps the identity and the face sealed in its session; registration opens them', async () => {
    const sessionId = await stagedSession();
    const reg = await p.registration('0981123456', null, sessionId);
    await openCaseId(reg.token);
    const caseId = (await op.post('ana', '/casos/tomar')).json().caseId as string;
    const digest = (await op.get('ana', `/casos/${caseId}`)).json().case.digest;
    const approved = await op.post('ana', `/casos/${caseId}/decision`, {
      decision: 'approve',
      digest,
    });
    expect(approved.json()).toEqual({ success: true, outcome: 'approved' });

    const resumed = await p.resume(reg.phone);
    expect(resumed).toMatchObject({ resumeAt: 'supplementary', idData: ID_DATA });
    const verified = resumed.sessionId as string;
    // At rest: not the name, not the number, not the face.
    const text = await rowText(verified);
    for (const value of [ID_DATA.DocumentNumber, 'GONZÁLEZ', 'BENÍTEZ', String(SELFIE[0])])
      expect(text).not.toContain(value);
    expect((await plaintextOf(verified))!.session_selfie).toBeNull();

    const registered = await p.register(resumed, reg.phone);
    expect(registered.statusCode).toBe(200);
    const { rows } = await h.t.ctx.db.query<{ numero_documento: string; embedding: number[] }>(
      `SELECT p.numero_documento, f.embedding FROM patients p
         JOIN face_enrollments f ON f.patient_id = p.id`,
    );
    expect(rows[0]!.numero_documento).toBe(ID_DATA.DocumentNumber);
    expect(rows[0]!.embedding.map((x) => Number(Number(x).toFixed(6)))).toEqual(SELFIE);
    const login = await p.post('/api/auth/login', {
      numero_documento: ID_DATA.DocumentNumber,
      pin: '482915',
    });
    expect(login.statusCode).toBe(200);
  });
});

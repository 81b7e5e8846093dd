import { describe, expect, it } from 'vitest';
import { caseDetailResponse, queueResponse } from '../../contract/operators';
import { onboardingPaths } from '../../contract/onboarding';
import { OPERATOR_SESSION_COOKIE } from '../../server/operators/sessions';
import { upsertPatient } from '../../server/patients/service';
import { createSession, SESSION_COOKIE } from '../../server/session/service';
import {
  auditRows,
  deskEngine,
  DESK_EMBEDDING,
  evidence,
  ID_DATA,
  jpeg,
  operatorApp,
  operatorCalls,
  SELFIE_EMBEDDING,
  useCaseApps,
} from './cases-fixtures';

/**
 * Assisted verification, the back office's case routes (issue 30): the queue, claims under
 * concurrency, looks and actions audited, the second approval, decisions and what the patient
 * resumes at after each, through the real operator sessions (server/operators). PGlite, and
 * PostgreSQL in the PostgreSQL tier.
 */

const { sms, kyc, h, p, op } = useCaseApps();
const MINUTE = 60_000;

const { reviewCase } = p;

const claim = async (name: Parameters<typeof op.post>[0]) => {
  const res = await op.post(name, '/casos/tomar');
  expect(res.statusCode).toBe(200);
  return res.json().caseId as string | null;
};
const decide = (name: Parameters<typeof op.post>[0], id: string, body: object) =>
  op.post(name, `/casos/${id}/decision`, body);
/** 'Aprobar' as the page does it: with the digest of the case it shows (a look, audited). */
const approve = async (name: Parameters<typeof op.post>[0], id: string) => {
  const shown = await op.get(name, `/casos/${id}`);
  return decide(name, id, { decision: 'approve', digest: shown.json().case?.digest });
};

describe('who may call', () => {
  it("no operator session: 401 on every route (a patient's live session is no operator session)", async () => {
    const { id } = await reviewCase();
    const patientId = (
      await upsertPatient(h.t.ctx, {
        numero_documento: '4567890',
        pin: '482915',
        nombre: 'MARÍA JOSÉ',
        apellido: 'GONZÁLEZ',
      })
    ).id;
    const { token } = await createSession(h.t.ctx, patientId);
    for (const [method, url] of [
      ['GET', '/casos'],
      ['POST', '/casos/tomar'],
      ['GET', `/casos/${id}`],
      ['GET', `/casos/${id}/imagen/selfie`],
      ['POST', `/casos/${id}/decision`],
      ['POST', '/codigos'],
    ] as const) {
      for (const cookies of [
        undefined as Record<string, string> | undefined,
        { [SESSION_COOKIE]: token },
        { [OPERATOR_SESSION_COOKIE]: token },
      ]) {
        const res = await op.inject({
          method,
          url: `/api/operador${url}`,
          // From the operator pages' own origin: the session is what is missing.
          headers: { origin: 'http://localhost' },
          ...(method === 'POST' ? { payload: {} } : {}),
          ...(cookies ? { cookies } : {}),
        });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
        expect(res.json().success).toBe(false);
      }
    }
    expect(await auditRows(h.t.ctx)).toHaveLength(1); // the opening only
  });
});

describe('the queue and claims', () => {
  it('lists open review cases oldest first, with no personal data', async () => {
    const first = await reviewCase('0981000001');
    const second = await reviewCase('0981000002', 'face_mismatch');
    const res = await op.get('ana', '/casos');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = queueResponse.parse(res.json());
    expect(body.total).toBe(2);
    expect(body.cases.map((c) => [c.id, c.trigger, c.needsSupervisor])).toEqual([
      [first.id, 'liveness_failed', false],
      [second.id, 'face_mismatch', false],
    ]);
    for (const personal of ['GONZÁLEZ', '4567890', '0981000001', 'kyc-'])
      expect(res.body).not.toContain(personal);
  });

  it('two operators claiming at once never get the same case', async () => {
    const cases: string[] = [];
    for (let i = 0; i < 6; i++) cases.push((await reviewCase(`098100001${i}`)).id);
    const names = ['ana', 'beto', 'sofia', 'tomas'] as const;
    const got = await Promise.all(names.map((n) => claim(n)));
    expect(new Set(got).size).toBe(4);
    expect(got.every((id) => id && cases.includes(id))).toBe(true);
    // Claiming again answers the case already held.
    expect(await claim('ana')).toBe(got[0]);
    const { rows } = await h.t.ctx.db.query<{ n: number | string }>(
      'SELECT count(*) AS n FROM cases WHERE claimed_by IS NOT NULL',
    );
    expect(Number(rows[0]!.n)).toBe(4);
  });

  it('one case, two claims at once: one gets it, the other nothing', async () => {
    const { id } = await reviewCase();
    const got = await Promise.all([claim('ana'), claim('beto')]);
    expect(got.filter((g) => g === id)).toHaveLength(1);
    expect(got.filter((g) => g === null)).toHaveLength(1);
  });

  it('a claim idle 30 minutes returns to the queue; activity keeps it', async () => {
    const { id } = await reviewCase();
    expect(await claim('ana')).toBe(id);
    expect(await claim('beto')).toBeNull();
    h.t.clock.advance(29 * MINUTE);
    expect((await op.get('ana', `/casos/${id}`)).statusCode).toBe(200); // activity
    h.t.clock.advance(29 * MINUTE);
    expect(await claim('beto')).toBeNull();
    h.t.clock.advance(2 * MINUTE);
    expect((await op.get('beto', '/casos')).json().total).toBe(1);
    expect(await claim('beto')).toBe(id);
    const lost = await op.get('ana', `/casos/${id}`);
    expect(lost.statusCode).toBe(403);
    expect(lost.json().message).toBe(
      'Este caso no está reservado para vos. Tomalo de la cola para verlo.',
    );
  });

  it('releasing returns the case to the queue', async () => {
    const { id } = await reviewCase();
    await claim('ana');
    expect((await op.post('ana', `/casos/${id}/soltar`)).statusCode).toBe(200);
    expect(await claim('beto')).toBe(id);
  });
});

describe('looking at a case', () => {
  it('only the claimer sees it; every look and every image is audited; images are no-store', async () => {
    const { id } = await reviewCase();
    expect((await op.get('ana', `/casos/${id}`)).statusCode).toBe(403);
    await claim('ana');
    expect((await op.get('beto', `/casos/${id}`)).statusCode).toBe(403);
    const res = await op.get('ana', `/casos/${id}`);
    expect(res.statusCode).toBe(200);
    const detail = caseDetailResponse.parse(res.json()).case;
    expect(detail).toMatchObject({
      id,
      kind: 'review',
      status: 'open',
      fields: ID_DATA,
      corrections: [],
      engineReasons: ['mrz_unreadable'],
      engineSignals: { virtual_camera: 1 },
      faceSimilarity: 0.31,
      faceThreshold: 0.5,
      attempts: { liveness: 1, scans: 2 },
      images: ['selfie', 'portrait', 'front', 'back'],
      approvals: [],
      needsSupervisor: false,
      claimedByMe: true,
      expiresAt: null,
    });
    const image = await op.get('ana', `/casos/${id}/imagen/portrait`);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.headers['cache-control']).toBe('no-store');
    expect(image.rawPayload).toEqual(jpeg('portrait'));
    expect((await op.get('ana', `/casos/${id}/imagen/desk`)).statusCode).toBe(404);
    expect((await op.get('ana', `/casos/${id}/imagen/otra`)).statusCode).toBe(404);
    expect((await op.get('ana', '/casos/no-es-un-id')).json()).toEqual({
      success: false,
      message: 'No encontramos ese caso.',
    });
    const rows = (await auditRows(h.t.ctx)).map((r) => [r.operator_usuario, r.action]);
    expect(rows).toEqual([
      [null, 'open'],
      ['ana', 'refused'], // before claiming it
      ['ana', 'claim'],
      ['beto', 'refused'],
      ['ana', 'view'],
      ['ana', 'image:portrait'],
    ]);
  });

  it('a correction needs a reason; it is audited as the field, never the values or the reason', async () => {
    const { id } = await reviewCase();
    await claim('ana');
    const noReason = await op.post('ana', `/casos/${id}/campos`, {
      field: 'FullName',
      value: 'GONZÁLEZ BENÍTEZ MARÍA JOSEFA',
      reason: '',
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe(
      'Revisá la corrección: indicá el campo, el valor nuevo y el motivo (al menos 3 letras).',
    );
    const ok = await op.post('ana', `/casos/${id}/campos`, {
      field: 'FullName',
      value: 'GONZÁLEZ BENÍTEZ MARÍA JOSEFA',
      reason: 'Error de lectura del nombre',
    });
    expect(ok.statusCode).toBe(200);
    const detail = (await op.get('ana', `/casos/${id}`)).json().case;
    expect(detail.fields.FullName).toBe('GONZÁLEZ BENÍTEZ MARÍA JOSEFA');
    expect(detail.corrections).toEqual([
      {
        field: 'FullName',
        from: ID_DATA.FullName,
        to: 'GONZÁLEZ BENÍTEZ MARÍA JOSEFA',
        reason: 'Error de lectura del nombre',
        operator: 'ana',
        at: new Date(h.t.clock.now()).toISOString(),
      },
    ]);
    const correction = (await auditRows(h.t.ctx)).find((r) => r.action === 'correct')!;
    expect(correction.detail).toEqual({ field: 'FullName' });
    expect(JSON.stringify(await auditRows(h.t.ctx))).not.toContain('JOSEFA');
  });
});

describe('deciding', () => {
  it('a supervised trigger needs a second approval by a different supervisor', async () => {
    const { id, phone } = await reviewCase('0981123456', 'face_mismatch');
    expect(await claim('ana')).toBe(id);
    const first = await approve('ana', id);
    expect(first.json()).toEqual({ success: true, outcome: 'awaiting_supervisor' });
    expect(sms.sent.filter((s) => s.purpose === 'case_decision')).toHaveLength(0);
    // Back in the queue for a supervisor only; the first approver cannot take it again.
    expect((await op.get('beto', '/casos')).json().cases[0]).toMatchObject({
      id,
      needsSupervisor: true,
    });
    expect(await claim('ana')).toBeNull();
    expect(await claim('beto')).toBeNull();
    expect(await claim('sofia')).toBe(id);
    const approved = await approve('sofia', id);
    expect(approved.json()).toEqual({ success: true, outcome: 'approved' });
    const detail = (await op.get('sofia', `/casos/${id}`)).json().case;
    expect(detail.approvals.map((a: { operator: string }) => a.operator)).toEqual(['ana', 'sofia']);
    expect(detail.status).toBe('approved');
    // The patient continues at the complementary data with the identity a person verified.
    const resumed = await p.resume(phone);
    expect(resumed).toMatchObject({
      resumeAt: 'supplementary',
      idData: ID_DATA,
      case: { status: 'approved' },
    });
    expect(resumed.sessionId).toMatch(/^verified-/);
    expect(kyc.embeddings.get(resumed.sessionId)).toEqual(SELFIE_EMBEDDING);
    // The registration finishes with the PIN chosen before the case.
    const registered = await p.register(resumed, phone);
    expect(registered.statusCode).toBe(200);
    expect(kyc.enrolled[0]!.embedding).toEqual(SELFIE_EMBEDDING);
    const login = await p.post('/api/auth/login', { numero_documento: '4567890', pin: '482915' });
    expect(login.statusCode).toBe(200);
  });

  it('the first approver cannot give the second approval, even as a supervisor', async () => {
    const { id } = await reviewCase('0981123456', 'face_mismatch');
    await claim('sofia');
    expect((await approve('sofia', id)).json().outcome).toBe('awaiting_supervisor');
    expect(await claim('sofia')).toBeNull();
    expect(await claim('tomas')).toBe(id);
    expect((await approve('tomas', id)).json().outcome).toBe('approved');
  });

  it('two decisions at once: one wins, the other is a 409', async () => {
    const { id } = await reviewCase();
    await claim('ana');
    const answers = await Promise.all([
      approve('ana', id),
      decide('ana', id, { decision: 'reject', reason: 'faces_differ' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const { rows } = await h.t.ctx.db.query<{ status: string }>('SELECT status FROM cases');
    expect(['approved', 'rejected']).toContain(rows[0]!.status);
  });

  it('only the claimer decides; a bad decision is a Spanish 400', async () => {
    const { id } = await reviewCase();
    await claim('ana');
    // Beto cannot look at it, so has no digest of it: a well-formed one is still a 403.
    expect(
      (await decide('beto', id, { decision: 'approve', digest: '0'.repeat(64) })).statusCode,
    ).toBe(403);
    const bad = await decide('ana', id, { decision: 'reject', reason: 'porque sí' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^Revisá la decisión/);
    // Decided: the operator who decided still sees it; one who took no part does not.
    expect((await decide('ana', id, { decision: 'reject', reason: 'other' })).statusCode).toBe(200);
    expect((await op.get('ana', `/casos/${id}`)).statusCode).toBe(200);
    expect((await op.get('beto', `/casos/${id}`)).statusCode).toBe(403);
    expect((await op.get('beto', `/casos/${id}/imagen/selfie`)).statusCode).toBe(403);
    expect((await approve('ana', id)).json()).toEqual({
      success: false,
      message: 'Este caso ya tiene una decisión.',
      reason: 'case_decided',
    });
  });

  it('rejected: the patient reads the reason and may go to a health centre; the SMS has a link and nothing personal', async () => {
    const { id, phone, token } = await reviewCase();
    await claim('ana');
    expect(
      (await decide('ana', id, { decision: 'reject', reason: 'photos_unusable' })).statusCode,
    ).toBe(200);
    const [message] = sms.sent.filter((s) => s.purpose === 'case_decision');
    expect(message!.to).toBe(phone);
    expect(message!.body).toMatch(
      /^Tu verificación de identidad en Portal del Paciente tiene novedades\. Seguí en http:\/\/\S+\/onboarding\/celular#[\w-]{43}$/,
    );
    for (const personal of ['GONZÁLEZ', '4567890', 'rechaz', 'photos'])
      expect(message!.body).not.toContain(personal);
    const linkToken = message!.body.split('#')[1]!;
    const opened = await p.post(onboardingPaths.openLink, { linkToken });
    expect(opened.statusCode).toBe(200);
    expect(opened.json().registration).toMatchObject({
      resumeAt: 'case',
      case: { status: 'rejected', rejectReason: 'photos_unusable', kind: 'review' },
    });
    // A rejected review may open a centro case, not another review.
    expect((await p.openCase(token)).statusCode).toBe(409);
    const centro = await p.openCase(token, { kind: 'centro' });
    expect(centro.statusCode).toBe(200);
    expect(centro.json().case).toMatchObject({ kind: 'centro', status: 'open' });
  });

  it("'repeat' the selfie: the patient starts the selfie again, with the case", async () => {
    const { id, phone } = await reviewCase();
    await claim('ana');
    expect((await decide('ana', id, { decision: 'repeat', step: 'selfie' })).json().outcome).toBe(
      'repeat',
    );
    expect(await p.resume(phone)).toMatchObject({
      resumeAt: 'welcome',
      sessionId: null,
      case: { status: 'repeat', repeatStep: 'selfie' },
    });
  });

  it("'repeat' the front: a live session with the selfie's face and the back kept; the patient retakes the front", async () => {
    const { id, phone } = await reviewCase();
    await claim('ana');
    expect((await decide('ana', id, { decision: 'repeat', step: 'front' })).statusCode).toBe(200);
    expect(kyc.live).toEqual([
      {
        id: expect.stringMatching(/^live-/),
        embedding: SELFIE_EMBEDDING,
        keep: { back: jpeg('back') },
      },
    ]);
    expect(await p.resume(phone)).toMatchObject({
      resumeAt: 'document',
      sessionId: kyc.live[0]!.id,
      retake: 'front',
      case: { status: 'repeat', repeatStep: 'front' },
    });
  });

  it("'repeat' the back of a case with no front (issue 43 item 1): the patient takes both sides, not the back alone", async () => {
    const { id, phone } = await reviewCase(
      '0981123456',
      'patient_choice',
      evidence({ front: null, back: null, portrait: null, idData: null, portraitEmbedding: null }),
    );
    await claim('ana');
    expect((await decide('ana', id, { decision: 'repeat', step: 'back' })).statusCode).toBe(200);
    // Nothing to keep: the front must come with the back.
    expect(kyc.live).toEqual([
      { id: expect.stringMatching(/^live-/), embedding: SELFIE_EMBEDDING, keep: {} },
    ]);
    const resumed = await p.resume(phone);
    expect(resumed).toMatchObject({
      resumeAt: 'document',
      sessionId: kyc.live[0]!.id,
      case: { status: 'repeat', repeatStep: 'back' },
    });
    expect(resumed.retake).toBeUndefined();
  });

  it("'repeat' the back of a case with the front: the patient retakes the back alone", async () => {
    const { id, phone } = await reviewCase(
      '0981123456',
      'patient_choice',
      evidence({ back: null }),
    );
    await claim('ana');
    expect((await decide('ana', id, { decision: 'repeat', step: 'back' })).statusCode).toBe(200);
    expect(kyc.live[0]!.keep).toEqual({ front: jpeg('front') });
    expect(await p.resume(phone)).toMatchObject({
      resumeAt: 'document',
      sessionId: kyc.live[0]!.id,
      retake: 'back',
    });
  });

  it('a remote review with no face is not approved, and is not asked for a desk photo (issue 43 item 2)', async () => {
    const { id } = await reviewCase(
      '0981123456',
      'patient_choice',
      evidence({ selfie: null, selfieEmbedding: null }),
    );
    await claim('ana');
    const noFace = await approve('ana', id);
    expect(noFace.statusCode).toBe(409);
    expect(noFace.json().message).toBe(
      'Este caso no tiene ninguna foto del rostro: no se puede aprobar a distancia. Pedí que repita la selfie o rechazalo para que verifique su identidad en un centro de salud.',
    );
    expect(noFace.json().message).not.toMatch(/escritorio/);
    // Nor may it take one: the desk photo is for health-centre cases.
    expect((await op.photo('ana', id, jpeg('desk'))).statusCode).toBe(409);
  });

  it('a case with no face cannot be approved until the desk photo', async () => {
    const reg = await p.registration(
      '0981123456',
      evidence({ selfie: null, selfieEmbedding: null }),
    );
    const opened = await p.openCase(reg.token, { kind: 'centro', trigger: 'liveness_failed' });
    const code = opened.json().case.code as string;
    const found = await op.post('ana', '/codigos', {
      code: `${code.slice(0, 4)}-${code.slice(4)}`,
    });
    expect(found.statusCode).toBe(200);
    const id = found.json().caseId as string;
    const noFace = await approve('ana', id);
    expect(noFace.statusCode).toBe(409);
    expect(noFace.json().message).toBe(
      'Este caso no tiene ninguna foto del rostro. Tomá la foto en el escritorio antes de aprobar.',
    );
    expect((await op.photo('ana', id, Buffer.from('no soy un jpeg'))).statusCode).toBe(415);
    const tooLarge = Buffer.concat([jpeg('grande'), Buffer.alloc(8 * 1024 * 1024)]);
    const large = await op.photo('ana', id, tooLarge);
    expect(large.statusCode).toBe(413);
    expect(large.json()).toEqual({ success: false, message: 'La solicitud es demasiado grande.' });
    expect((await op.photo('ana', id, jpeg('desk'), 'image/png')).statusCode).toBe(415);
    const photo = await op.photo('ana', id, jpeg('desk'));
    expect(photo.statusCode).toBe(200);
    // The engine's cosine of the desk face and the card's portrait, and its document threshold.
    expect(photo.json()).toEqual({ success: true, faceSimilarity: 0.36, faceThreshold: 0.66 });
    expect((await approve('ana', id)).json().outcome).toBe('approved');
    const resumed = await p.resume();
    expect(kyc.embeddings.get(resumed.sessionId)).toEqual(DESK_EMBEDDING);
    const actions = (await auditRows(h.t.ctx)).map((r) => r.action);
    expect(actions).toEqual(['open', 'lookup', 'claim', 'view', 'desk_photo', 'view', 'approve']);
  });

  it('a case whose card was never read cannot be approved until its name and number are typed', async () => {
    const reg = await p.registration('0981123456', null);
    const code = (await p.openCase(reg.token, { kind: 'centro', trigger: 'no_camera' })).json().case
      .code as string;
    const id = (await op.post('ana', '/codigos', { code })).json().caseId as string;
    expect((await op.photo('ana', id, jpeg('desk'))).statusCode).toBe(200);
    const refused = await approve('ana', id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ success: false, reason: 'fields_missing' });
    const reason = 'Leído de la cédula física';
    for (const [field, value] of [
      ['FullName', 'GONZÁLEZ MARÍA'],
      ['DocumentNumber', '4567890'],
    ])
      expect(
        (await op.post('ana', `/casos/${id}/campos`, { field, value, reason })).statusCode,
      ).toBe(200);
    expect((await approve('ana', id)).json().outcome).toBe('approved');
    expect((await p.resume()).idData).toMatchObject({
      FullName: 'GONZÁLEZ MARÍA',
      DocumentNumber: '4567890',
    });
  });

  it("a desk photo without a face is refused with the gates' hint", async () => {
    const reg = await p.registration();
    const code = (await p.openCase(reg.token, { kind: 'centro' })).json().case.code;
    const blind = await operatorApp(h.t.ctx, deskEngine(null));
    try {
      const id = (await op.post('ana', '/codigos', { code })).json().caseId;
      const res = await operatorCalls(() => blind).photo('ana', id, jpeg('nadie'));
      expect(res.statusCode).toBe(422);
      expect(res.json().success).toBe(false);
      expect(res.json().message.length).toBeGreaterThan(10);
    } finally {
      await blind.close();
    }
  });
});

describe('code look-ups', () => {
  it('misses are audited and rate-limited per operator (429 with Retry-After)', async () => {
    const reg = await p.registration();
    const code = (await p.openCase(reg.token, { kind: 'centro' })).json().case.code as string;
    const guess = code === 'AAAAAAAA' ? 'CCCCCCCC' : 'AAAAAAAA';
    for (let i = 0; i < 30; i++) {
      const miss = await op.post('beto', '/codigos', { code: guess });
      expect(miss.statusCode).toBe(404);
    }
    const limited = await op.post('beto', '/codigos', { code });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().message).toMatch(/^Demasiados intentos/);
    // Another operator is not limited by beto's guesses.
    expect((await op.post('ana', '/codigos', { code })).statusCode).toBe(200);
    const lookups = (await auditRows(h.t.ctx)).filter((r) => r.action === 'lookup');
    expect(lookups).toHaveLength(31);
    expect(lookups.filter((r) => r.detail.found === false)).toHaveLength(30);
    expect(JSON.stringify(lookups)).not.toContain(guess);
    const bad = await op.post('ana', '/codigos', { code: 'O0O0-I1I1' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(
      'Ingresá un código válido de 8 caracteres (por ejemplo, ABCD-EFGH).',
    );
  });
});

describe('the audit log', () => {
  it('refuses UPDATE and DELETE', async () => {
    await reviewCase();
    await expect(h.t.ctx.db.query(`UPDATE case_audit SET action = 'x'`)).rejects.toThrow(
      /append-only/,
    );
    await expect(h.t.ctx.db.query('DELETE FROM case_audit')).rejects.toThrow(/append-only/);
    expect(await auditRows(h.t.ctx)).toHaveLength(1);
  });
});

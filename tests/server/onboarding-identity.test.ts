import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { onboardingPaths } from '../../contract/onboarding';
import { MemorySms, useTestApp, TERMS_ACCEPTED } from './helpers';

/** Registration wired to the identity engine's real store: sessions as the engine leaves them. */
const sms = new MemorySms();
const h = useTestApp({ deps: { sms } });

const embedding = Array.from({ length: 1024 }, (_, i) => Math.sin(i));

async function completedSession(
  idData: Record<string, string>,
  status = 'completed',
): Promise<string> {
  const id = randomUUID();
  await h.t.ctx.db.query(
    `INSERT INTO kyc_sessions (id, status, decider, liveness_state, selfie_embedding, result, expires_at, completed_at)
     VALUES ($1, $2, 'test', '{}'::jsonb, $3, $4::jsonb, now() + interval '1 hour', now())`,
    [id, status, embedding, JSON.stringify({ id_data: idData })],
  );
  return id;
}

const post = (url: string, payload: unknown) =>
  h.t.app.inject({ method: 'POST', url, payload: payload as object });

let token = '';

/** The code validated (a registration), the PIN kept, and the KYC session bound to it. */
async function verifyPhone(phone: string, sessionId: string) {
  await post(onboardingPaths.start, { phone });
  const res = await post(onboardingPaths.validateOtp, { celular: phone, otp: sms.lastCode(phone) });
  expect(res.statusCode).toBe(200);
  token = res.json().registration.token;
  await post(onboardingPaths.savePin, {
    registrationToken: token,
    pin: '482915',
    ...TERMS_ACCEPTED,
  });
  expect(
    (await post(onboardingPaths.bindKyc, { registrationToken: token, sessionId })).statusCode,
  ).toBe(200);
}

const registration = (sessionId: string, phone = '0981123456') => ({
  registrationToken: token,
  phone,
  email: '',
  pin: '482915',
  sessionId,
  supplementaryData: { departamento: '00', ciudad_id: '0000' },
  kycResult: null,
});

const ID = {
  FullName: 'ROJAS ACOSTA JUAN CARLOS',
  DocumentNumber: '4567890',
  DateOfBirth: '1990-05-17',
  Gender: 'M',
  Nationality: 'PRY',
  MaritalStatus: 'CASADO',
};

describe('register with the identity engine store', () => {
  it('uses the wired engine store, enrolls the face and uses the session up', async () => {
    expect(h.t.ctx.kyc).not.toBeNull();
    const sessionId = await completedSession(ID);
    await verifyPhone('0981123456', sessionId);
    const res = await post(onboardingPaths.register, registration(sessionId));
    expect(res.json()).toMatchObject({ success: true });

    const p = await h.t.ctx.db.query<{ id: string; nombre: string; apellido: string }>(
      'SELECT id::text AS id, nombre, apellido FROM patients',
    );
    expect(p.rows).toEqual([
      { id: expect.any(String), nombre: 'JUAN CARLOS', apellido: 'ROJAS ACOSTA' },
    ]);
    const face = await h.t.ctx.db.query<{ patient_id: string; n: number }>(
      'SELECT patient_id::text AS patient_id, array_length(embedding, 1) AS n FROM face_enrollments',
    );
    expect(face.rows).toEqual([{ patient_id: p.rows[0]!.id, n: 1024 }]);
    const used = await h.t.ctx.db.query(
      'SELECT 1 FROM kyc_sessions WHERE id = $1 AND consumed_at IS NOT NULL',
      [sessionId],
    );
    expect(used.rows).toHaveLength(1);

    // The double submit still answers the same success.
    expect((await post(onboardingPaths.register, registration(sessionId))).json()).toEqual(
      res.json(),
    );
  });

  it("registers the names as the engine read them, accents included ('PÁEZ')", async () => {
    const sessionId = await completedSession({ ...ID, FullName: 'RECALDE PÁEZ JOSÉ ÑANDÚ' });
    await verifyPhone('0981123456', sessionId);
    expect((await post(onboardingPaths.register, registration(sessionId))).statusCode).toBe(200);
    const p = await h.t.ctx.db.query('SELECT nombre, apellido FROM patients');
    expect(p.rows).toEqual([{ nombre: 'JOSÉ ÑANDÚ', apellido: 'RECALDE PÁEZ' }]);
  });

  it("registers a foreign resident's card: the nationality in words as the engine gives it", async () => {
    // A Paraguayan cédula of an Argentine resident (ARG in its MRZ, issue 28 item 4).
    const sessionId = await completedSession({ ...ID, Nationality: 'ARGENTINA' });
    await verifyPhone('0981123456', sessionId);
    expect((await post(onboardingPaths.register, registration(sessionId))).json()).toMatchObject({
      success: true,
    });
    const p = await h.t.ctx.db.query('SELECT numero_documento, nacionalidad FROM patients');
    expect(p.rows).toEqual([{ numero_documento: '4567890', nacionalidad: 'ARGENTINA' }]);
  });

  it('refuses a session the engine did not complete', async () => {
    const sessionId = await completedSession(ID, 'live');
    await verifyPhone('0981123456', sessionId);
    const res = await post(onboardingPaths.register, registration(sessionId));
    expect(res.statusCode).toBe(400);
    expect((await h.t.ctx.db.query('SELECT 1 FROM patients')).rows).toHaveLength(0);
  });
});

describe("resuming with the engine's sessions", () => {
  const resumeAt = async () => {
    // Past the per-mobile SMS budget's hour share (5 an hour).
    h.t.clock.advance(13 * 60_000);
    await post(onboardingPaths.start, { phone: '0981123456' });
    const res = await post(onboardingPaths.validateOtp, {
      celular: '0981123456',
      otp: sms.lastCode('0981123456'),
    });
    return res.json().registration;
  };

  it('a passed selfie continues at the document, a read document at the review, while valid', async () => {
    const live = await completedSession(ID, 'live');
    await verifyPhone('0981123456', live);
    expect(await resumeAt()).toMatchObject({ resumeAt: 'document', sessionId: live });

    // Idle past the session's limit (IDENTITY_SESSION_IDLE_MINUTES): the selfie is asked again.
    await h.t.ctx.db.query(
      `UPDATE kyc_sessions SET updated_at = now() - interval '11 minutes' WHERE id = $1`,
      [live],
    );
    expect((await resumeAt()).resumeAt).toBe('welcome');

    const read = await completedSession(ID);
    const again = await resumeAt();
    expect(
      (await post(onboardingPaths.bindKyc, { registrationToken: again.token, sessionId: read }))
        .statusCode,
    ).toBe(200);
    expect(await resumeAt()).toMatchObject({
      resumeAt: 'review',
      sessionId: read,
      idData: { FullName: 'ROJAS ACOSTA JUAN CARLOS', DocumentNumber: '4567890' },
    });

    // Expired: the identity step starts again.
    await h.t.ctx.db.query(
      `UPDATE kyc_sessions SET expires_at = now() - interval '1 second' WHERE id = $1`,
      [read],
    );
    expect((await resumeAt()).resumeAt).toBe('welcome');
  });
});

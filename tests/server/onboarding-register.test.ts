import { beforeAll, describe, expect, it } from 'vitest';
import { onboardingPaths, type IdData, type RegisterRequest } from '../../contract/onboarding';
import type { Db } from '../../server/db/client';
import type { CompletedKyc, KycProgress, KycStore } from '../../server/onboarding/kyc-store';
import { NoAssistedKyc } from './kyc-fakes';
import { upsertPatient } from '../../server/patients/service';
import { MemorySms, useTestApp, TERMS_ACCEPTED } from './helpers';

/**
 * In-test KYC sessions: what the identity engine would have stored for completed sessions. Their
 * use is recorded in a table through the registration transaction, so a rollback undoes it.
 */
class MemoryKyc extends NoAssistedKyc implements KycStore {
  sessions = new Map<string, CompletedKyc>();
  enrolled: { patientId: string; embedding: number[] }[] = [];
  failEnroll = false;
  complete(sessionId: string, idData: Partial<IdData> = {}) {
    this.sessions.set(sessionId, {
      idData: { ...ID_DATA, ...idData },
      embedding: Array.from({ length: 4 }, (_, i) => i / 4),
    });
  }
  reset() {
    this.sessions.clear();
    this.enrolled = [];
    this.failEnroll = false;
  }
  async getCompletedKyc(sessionId: string) {
    const used = await h.t.ctx.db.query('SELECT 1 FROM test_kyc_used WHERE session_id = $1', [
      sessionId,
    ]);
    return used.rows.length ? null : (this.sessions.get(sessionId) ?? null);
  }
  async consumeKyc(sessionId: string, tx: Db) {
    if (!this.sessions.has(sessionId)) return false;
    const { rows } = await tx.query(
      'INSERT INTO test_kyc_used (session_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING session_id',
      [sessionId],
    );
    return rows.length === 1;
  }
  async progressOf(sessionId: string): Promise<KycProgress> {
    const completed = await this.getCompletedKyc(sessionId);
    return completed ? { stage: 'documentRead', idData: completed.idData } : { stage: 'started' };
  }
  async enrollFace(patientId: string, embedding: ArrayLike<number>, tx: Db) {
    if (this.failEnroll) throw new Error('enroll failed');
    // Proves the call runs inside the registration transaction: the patient is visible through tx.
    const { rows } = await tx.query('SELECT 1 FROM patients WHERE id = $1', [patientId]);
    if (rows.length !== 1) throw new Error('enrollFace outside the registration transaction');
    this.enrolled.push({ patientId, embedding: Array.from(embedding) });
  }
}

const ID_DATA: IdData = {
  FullName: 'GONZÁLEZ BENÍTEZ MARÍA JOSÉ',
  DocumentNumber: '4.567.890',
  DateOfBirth: '17/05/1990',
  Gender: 'F',
  Nationality: 'PRY',
  MaritalStatus: 'SOLTERA',
};
const PHONE = '0981123456';

const sms = new MemorySms();
const kyc = new MemoryKyc();
const h = useTestApp({ deps: { sms, kyc } });
beforeAll(async () => {
  await h.t.ctx.db.query('CREATE TABLE test_kyc_used (session_id text PRIMARY KEY)');
});

const post = (url: string, payload: unknown) =>
  h.t.app.inject({ method: 'POST', url, payload: payload as object });

/** The registration token of the last verified phone (validate-otp gives it). */
let token = '';

/**
 * Steps 0-4 as the browser makes them: the code sent and validated (a registration token), the
 * PIN kept (its hash), the KYC session bound to the registration.
 */
async function verifyPhone(phone = PHONE, sessionId = 'kyc-1', pin = '482915') {
  expect((await post(onboardingPaths.start, { phone })).statusCode).toBe(200);
  const res = await post(onboardingPaths.validateOtp, { celular: phone, otp: sms.lastCode(phone) });
  expect(res.statusCode).toBe(200);
  token = res.json().registration.token;
  const saved = await post(onboardingPaths.savePin, {
    registrationToken: token,
    pin,
    ...TERMS_ACCEPTED,
  });
  expect(saved.statusCode).toBe(200);
  return post(onboardingPaths.bindKyc, { registrationToken: token, sessionId });
}

function body(over: Partial<RegisterRequest> = {}): RegisterRequest {
  return {
    registrationToken: token,
    phone: '+595 981 123456',
    email: 'maria@example.com',
    pin: '482915',
    sessionId: 'kyc-1',
    supplementaryData: {
      tipoSangre: 'O+',
      direccion: 'Calle Palma 123',
      departamento: '11',
      ciudad_id: '1101',
    },
    // What the browser claims: never trusted.
    kycResult: {
      nombre: 'OTRA',
      apellido: 'PERSONA',
      numeroDocumento: '1111111',
      fechaNacimiento: '2000-01-01',
    },
    ...over,
  };
}

async function patients() {
  const { rows } = await h.t.ctx.db.query<Record<string, unknown>>(
    `SELECT id::text AS id, numero_documento, nombre, apellido, celular, email, fecha_nacimiento::text AS fecha_nacimiento,
            sexo, nacionalidad, estado_civil, tipo_sangre, direccion, ciudad_id, pin_hash
       FROM patients ORDER BY id`,
  );
  return rows;
}

describe('POST /api/onboarding/register', () => {
  it("creates the patient from the server's stored KYC result, not the browser's", async () => {
    kyc.reset();
    kyc.complete('kyc-1');
    await verifyPhone();
    const res = await post(onboardingPaths.register, body());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: 'Registro completado. Ya podés ingresar con tu número de documento y tu PIN.',
    });
    const [p, ...others] = await patients();
    expect(others).toHaveLength(0);
    expect(p).toMatchObject({
      numero_documento: '4567890',
      apellido: 'GONZÁLEZ BENÍTEZ',
      nombre: 'MARÍA JOSÉ',
      celular: PHONE,
      email: 'maria@example.com',
      fecha_nacimiento: '1990-05-17',
      sexo: 'F',
      nacionalidad: 'PRY',
      estado_civil: 'SOLTERA',
      tipo_sangre: 'O+',
      direccion: 'Calle Palma 123',
      ciudad_id: '1101',
    });
    expect(String(p!.pin_hash)).toMatch(/^\$argon2id\$/);
    expect(kyc.enrolled).toEqual([{ patientId: p!.id, embedding: [0, 0.25, 0.5, 0.75] }]);

    // The PIN is hashed as for login: the new patient can log in.
    const login = await post('/api/auth/login', { numero_documento: '4567890', pin: '482915' });
    expect(login.statusCode).toBe(200);
  });

  it("stores the card's date as written without leading zeros (5/3/1990) as 1990-03-05", async () => {
    kyc.reset();
    kyc.complete('kyc-1', { DateOfBirth: '5/3/1990' });
    await verifyPhone();
    expect((await post(onboardingPaths.register, body())).statusCode).toBe(200);
    expect(await patients()).toMatchObject([{ fecha_nacimiento: '1990-03-05' }]);
  });

  it('splits a two-word name: first word surname, the rest given name', async () => {
    kyc.reset();
    kyc.complete('kyc-1', { FullName: 'ROJAS ANA' });
    await verifyPhone();
    await post(
      onboardingPaths.register,
      body({ supplementaryData: { departamento: '00', ciudad_id: '0000' } }),
    );
    expect(await patients()).toMatchObject([
      { apellido: 'ROJAS', nombre: 'ANA', tipo_sangre: null, direccion: null },
    ]);
  });

  it('is idempotent: the same session submitted twice gives the same success and one patient', async () => {
    kyc.reset();
    kyc.complete('kyc-1');
    await verifyPhone();
    const first = await post(onboardingPaths.register, body());
    const second = await post(onboardingPaths.register, body());
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(await patients()).toHaveLength(1);
    expect(kyc.enrolled).toHaveLength(1);
  });

  it('is idempotent under a concurrent double submit', async () => {
    kyc.reset();
    kyc.complete('kyc-1');
    await verifyPhone();
    const results = await Promise.all([
      post(onboardingPaths.register, body()),
      post(onboardingPaths.register, body()),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(results.map((r) => r.json().success)).toEqual([true, true]);
    expect(await patients()).toHaveLength(1);
  });

  it("a used KYC session answers 'existe' to another phone, and registers nobody else", async () => {
    kyc.reset();
    kyc.complete('kyc-1');
    await verifyPhone();
    expect((await post(onboardingPaths.register, body())).statusCode).toBe(200);
    // The session belongs to the first registration: another cannot take it, nor register with it.
    const bound = await verifyPhone('0991000111');
    expect(bound.statusCode).toBe(409);
    const other = await post(onboardingPaths.register, body({ phone: '0991000111' }));
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe(
      'Esta verificación de identidad es de otro registro. Volvé a empezar el paso 4.',
    );
    expect(await patients()).toHaveLength(1);
  });

  it("answers 409 'existe' for a document number already registered", async () => {
    kyc.reset();
    kyc.complete('kyc-1');
    await upsertPatient(h.t.ctx, {
      numero_documento: '4567890',
      pin: '739154',
      nombre: 'MARÍA',
      apellido: 'GONZÁLEZ',
    });
    await verifyPhone();
    const res = await post(onboardingPaths.register, body());
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      success: false,
      message: expect.stringContaining('existe'),
      onboardingComplete: true,
    });
    expect(await patients()).toHaveLength(1);
    expect(kyc.enrolled).toHaveLength(0);
  });

  it("answers 409 'existe' when another session registers the same document", async () => {
    kyc.reset();
    kyc.complete('kyc-1');
    kyc.complete('kyc-2');
    await verifyPhone();
    expect((await post(onboardingPaths.register, body())).statusCode).toBe(200);
    h.t.clock.advance(60_000);
    await verifyPhone('0991000111', 'kyc-2');
    const again = await post(
      onboardingPaths.register,
      body({ phone: '0991000111', sessionId: 'kyc-2' }),
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('existe');
  });

  it('requires the registration the code opened: a token, unexpired, not superseded, this phone', async () => {
    kyc.reset();
    kyc.complete('kyc-1');
    const missing = await post(onboardingPaths.register, { ...body(), registrationToken: '' });
    expect(missing.statusCode).toBe(400);
    const gone =
      'Tu registro venció o lo retomaste en otro dispositivo. Verificá tu celular de nuevo para continuar.';
    expect(missing.json().message).toBe(gone);

    await verifyPhone();
    const first = token;
    // Proving the mobile again (another page) supersedes the first page's token.
    h.t.clock.advance(31_000);
    await verifyPhone();
    const superseded = await post(onboardingPaths.register, body({ registrationToken: first }));
    expect(superseded.statusCode).toBe(401);
    expect(superseded.json()).toEqual({ success: false, message: gone });

    // Another phone than the registration's.
    const otherPhone = await post(onboardingPaths.register, body({ phone: '0991000111' }));
    expect(otherPhone.statusCode).toBe(403);

    // Past the resume window (24 h by default) the registration is forgotten.
    h.t.clock.advance(24 * 60 * 60_000 + 1);
    expect((await post(onboardingPaths.register, body())).statusCode).toBe(401);
    expect(await patients()).toHaveLength(0);
  });

  it('a verified phone registers one patient only', async () => {
    kyc.reset();
    kyc.complete('kyc-1');
    kyc.complete('kyc-2', { DocumentNumber: '7654321' });
    await verifyPhone();
    expect((await post(onboardingPaths.register, body())).statusCode).toBe(200);
    const other = await post(onboardingPaths.register, body({ sessionId: 'kyc-2' }));
    expect(other.statusCode).toBe(409);
    expect(await patients()).toHaveLength(1);
  });

  it('refuses a session the server did not complete', async () => {
    kyc.reset();
    await verifyPhone(PHONE, 'never-completed');
    const res = await post(onboardingPaths.register, body({ sessionId: 'never-completed' }));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      message: 'No encontramos una verificación de identidad completa. Volvé a empezar el proceso.',
    });
    expect(await patients()).toHaveLength(0);
  });

  it('refuses a city that does not belong to the department', async () => {
    kyc.reset();
    kyc.complete('kyc-1');
    await verifyPhone();
    for (const sup of [
      { departamento: '11', ciudad_id: '0101' },
      { departamento: '11', ciudad_id: '9999' },
      { departamento: '99', ciudad_id: '1101' },
    ]) {
      const res = await post(onboardingPaths.register, body({ supplementaryData: sup }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        success: false,
        message: 'Elegí una ciudad del departamento seleccionado.',
      });
    }
    expect(await patients()).toHaveLength(0);
  });

  it('rolls the patient back when the face cannot be enrolled', async () => {
    kyc.reset();
    kyc.complete('kyc-1');
    kyc.failEnroll = true;
    await verifyPhone();
    const res = await post(onboardingPaths.register, body());
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ success: false });
    expect(await patients()).toHaveLength(0);
    kyc.failEnroll = false;
    expect((await post(onboardingPaths.register, body())).statusCode).toBe(200);
  });

  it.each([
    [{ pin: '123456' }, 'El PIN debe ser numérico de 6 dígitos y no debe ser una secuencia fácil.'],
    [{ pin: '12345' }, 'El PIN debe ser numérico de 6 dígitos y no debe ser una secuencia fácil.'],
    [{ phone: '021123456' }, 'Por favor, ingresá un número de celular válido.'],
    [{ email: 'no-es-correo' }, 'Por favor, ingresá un correo válido o dejá el campo vacío.'],
    [{ sessionId: '' }, 'Los datos enviados no son válidos. Revisalos e intentá de nuevo.'],
    [
      { supplementaryData: { departamento: '', ciudad_id: '1101' } },
      'Revisá los datos complementarios: elegí un departamento y una ciudad.',
    ],
    [
      { supplementaryData: { departamento: '11', ciudad_id: '1101', tipoSangre: 'Z+' } },
      'Revisá los datos complementarios: elegí un departamento y una ciudad.',
    ],
  ] as [Partial<RegisterRequest>, string][])(
    'refuses %j with 400 and a Spanish message',
    async (over, message) => {
      kyc.reset();
      kyc.complete('kyc-1');
      await verifyPhone();
      const res = await post(onboardingPaths.register, body(over));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message });
    },
  );

  it.each(['170590', '900517', '051790', '170519', '456789'])(
    "refuses the PIN %s made from the card's birth date (17/05/1990) or number (4.567.890): 400 with its reason, nobody created",
    async (pin) => {
      kyc.reset();
      kyc.complete('kyc-1');
      await verifyPhone();
      const res = await post(onboardingPaths.register, body({ pin }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        success: false,
        message:
          'Tu PIN no puede salir de tu fecha de nacimiento ni de tu número de documento. Elegí otro PIN.',
        reason: 'pinFromOwnData',
      });
      expect(await patients()).toHaveLength(0);
      // The same session and verified phone register with another PIN.
      expect((await post(onboardingPaths.register, body({ pin: '482915' }))).statusCode).toBe(200);
    },
  );

  it('registers with the PIN kept at step 2 when the register call carries none (a resumed page)', async () => {
    kyc.reset();
    kyc.complete('kyc-1');
    await verifyPhone(PHONE, 'kyc-1', '739154');
    const { pin: _pin, ...resumed } = body();
    const res = await post(onboardingPaths.register, resumed);
    expect(res.statusCode).toBe(200);
    const login = await post('/api/auth/login', { numero_documento: '4567890', pin: '739154' });
    expect(login.statusCode).toBe(200);
  });

  it("refuses a kept PIN made from the card's data (checked against its hash), then takes a new one", async () => {
    kyc.reset();
    kyc.complete('kyc-1');
    // 170590: the birth date 17/05/1990 as DDMMYY; chosen at step 2, before the card was read.
    await verifyPhone(PHONE, 'kyc-1', '170590');
    const { pin: _pin, ...resumed } = body();
    const res = await post(onboardingPaths.register, resumed);
    expect(res.statusCode).toBe(400);
    expect(res.json().reason).toBe('pinFromOwnData');
    expect(await patients()).toHaveLength(0);
    expect((await post(onboardingPaths.register, body({ pin: '482915' }))).statusCode).toBe(200);
  });

  it('checks a kept hash at most 5 times an hour, and forgets one made from the card', async () => {
    kyc.reset();
    kyc.complete('kyc-1');
    await verifyPhone(PHONE, 'kyc-1', '170590');
    const { pin: _pin, ...resumed } = body();
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) {
      // Refused once, the hash is gone: a second call without a PIN is refused without a check.
      expect((await post(onboardingPaths.register, resumed)).json().reason).toBe('pinFromOwnData');
      expect((await post(onboardingPaths.register, resumed)).json().reason).toBe('pinFromOwnData');
      const saved = await post(onboardingPaths.savePin, {
        registrationToken: token,
        pin: '170590',
        ...TERMS_ACCEPTED,
      });
      codes.push(saved.statusCode);
    }
    expect(codes).toEqual([200, 200, 200, 200, 200]);
    // A sixth check within the hour: refused before any hashing.
    const capped = await post(onboardingPaths.register, resumed);
    expect(capped.statusCode).toBe(429);
    expect(await patients()).toHaveLength(0);
  });

  it('answers 503 without an identity engine wired, never a fake registration', async () => {
    const saved = h.t.ctx.kyc;
    h.t.ctx.kyc = null;
    try {
      await verifyPhone();
      const res = await post(onboardingPaths.register, body());
      expect(res.statusCode).toBe(503);
      expect(await patients()).toHaveLength(0);
    } finally {
      h.t.ctx.kyc = saved;
    }
  });
});

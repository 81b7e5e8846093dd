import { describe, expect, it } from 'vitest';
import { onboardingPaths } from '../../contract/onboarding';
import { upsertPatient } from '../../server/patients/service';
import { MemorySms, useTestApp } from './helpers';

const sms = new MemorySms();
const h = useTestApp({ deps: { sms } });

const post = (url: string, payload: unknown) =>
  h.t.app.inject({ method: 'POST', url, payload: payload as object });

describe('POST /api/onboarding/start', () => {
  it('sends a code to the normalised phone', async () => {
    const res = await post(onboardingPaths.start, {
      phone: '+595 981 123 456',
      email: 'ana@example.com',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: 'Te enviamos un código por SMS. Vence en 5 minutos.',
      resendAfterSeconds: 30,
    });
    expect(sms.sent).toEqual([
      {
        to: '0981123456',
        purpose: 'onboarding',
        body: expect.stringMatching(/^Portal del Paciente: .* \d{6}\. Vence en 5 minutos\./),
      },
    ]);
  });

  it("answers 'existe' for a phone that already has a complete patient record, without sending", async () => {
    await upsertPatient(h.t.ctx, {
      numero_documento: '1234567',
      pin: '482915',
      celular: '0981123456',
      nombre: 'ANA',
      apellido: 'ROJAS',
    });
    const res = await post(onboardingPaths.start, { phone: '0981 123 456' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      success: false,
      message: expect.stringContaining('existe'),
      onboardingComplete: true,
    });
    expect(sms.sent).toHaveLength(0);
    const resend = await post(onboardingPaths.resendOtp, { celular: '0981123456' });
    expect(resend.json()).toMatchObject({
      success: false,
      message: expect.stringContaining('existe'),
    });
  });

  it.each([
    [{ phone: '021 123456' }, 'Por favor, ingresá un número de celular válido.'],
    [{ phone: '' }, 'Por favor, ingresá un número de celular válido.'],
    [{}, 'Por favor, ingresá un número de celular válido.'],
    [{ phone: 981123456 }, 'Por favor, ingresá un número de celular válido.'],
    [
      { phone: '0981123456', email: 'ana@' },
      'Por favor, ingresá un correo válido o dejá el campo vacío.',
    ],
    [[], 'Por favor, ingresá un número de celular válido.'],
  ])('refuses %j with 400 and a Spanish message', async (payload, message) => {
    const res = await post(onboardingPaths.start, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message });
    expect(sms.sent).toHaveLength(0);
  });

  it('refuses a body that is not JSON (415) and broken JSON (400)', async () => {
    const text = await h.t.app.inject({
      method: 'POST',
      url: onboardingPaths.start,
      headers: { 'content-type': 'text/plain' },
      payload: 'phone=0981123456',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json()).toMatchObject({ success: false });
    const broken = await h.t.app.inject({
      method: 'POST',
      url: onboardingPaths.start,
      headers: { 'content-type': 'application/json' },
      payload: '{"phone":',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ success: false });
  });
});

describe('POST /api/onboarding/validate-otp', () => {
  it('accepts the right code for the normalised phone and refuses a wrong one with the spec text', async () => {
    await post(onboardingPaths.start, { phone: '+595981123456' });
    const code = sms.lastCode('0981123456');
    const bad = await post(onboardingPaths.validateOtp, {
      celular: '0981123456',
      otp: code === '999999' ? '999998' : '999999',
    });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toEqual({
      success: false,
      message:
        'El código ingresado es incorrecto o ya venció. Por favor, volvé a ingresar el código o solicitá el reenvío.',
    });
    const ok = await post(onboardingPaths.validateOtp, { celular: '0981123456', otp: code });
    expect(ok.json()).toMatchObject({ success: true, message: 'Código verificado.' });
    expect(ok.json().registration).toMatchObject({ resumeAt: 'pin', phone: '0981123456' });
    const verified = await h.t.ctx.db.query(
      'SELECT 1 FROM registration_drafts WHERE celular = $1',
      ['0981123456'],
    );
    expect(verified.rows).toHaveLength(1);
  });

  it.each([
    { celular: '0981123456', otp: '12345' },
    { celular: '0981123456', otp: 'abcdef' },
    { celular: 'x', otp: '123456' },
    {},
  ])('refuses %j with 400', async (payload) => {
    const res = await post(onboardingPaths.validateOtp, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message: expect.any(String) });
  });

  it('a phone with no code gets the wrong-code answer', async () => {
    const res = await post(onboardingPaths.validateOtp, { celular: '0981123456', otp: '123456' });
    expect(res.statusCode).toBe(401);
  });
});

describe('POST /api/onboarding/resend-otp', () => {
  it('refuses a bad phone with 400', async () => {
    const res = await post(onboardingPaths.resendOtp, { celular: '12' });
    expect(res.statusCode).toBe(400);
  });
});

describe('departments and cities', () => {
  it('lists the capital and the 17 departments with string ids', async () => {
    const res = await h.t.app.inject({ method: 'GET', url: onboardingPaths.departments });
    expect(res.statusCode).toBe(200);
    const deps = res.json() as { id: string; nombre: string }[];
    expect(deps).toHaveLength(18);
    expect(deps[0]).toEqual({ id: '00', nombre: 'ASUNCIÓN' });
    expect(deps).toContainEqual({ id: '11', nombre: 'CENTRAL' });
  });

  it("lists a department's cities alphabetically", async () => {
    const res = await h.t.app.inject({ method: 'GET', url: onboardingPaths.cities('01') });
    const cities = res.json() as { id: string; nombre: string }[];
    expect(cities).toContainEqual({ id: '0101', nombre: 'CONCEPCIÓN' });
    expect(cities.every((c) => c.id.startsWith('01'))).toBe(true);
    const names = cities.map((c) => c.nombre);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'es')));
    const total = await h.t.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM cities');
    expect(total.rows[0]!.n).toBe(250);
  });

  it('answers 404 in Spanish for an unknown department', async () => {
    const res = await h.t.app.inject({ method: 'GET', url: onboardingPaths.cities('99') });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      success: false,
      message: 'No encontramos ese departamento. Elegí uno de la lista.',
    });
  });
});

import type { TestApp } from './helpers';

/** Two patients for the Mis datos tests (issue 45): each must see only their own rows. */
export const ANA = {
  numero_documento: '4567890',
  pin: '739154',
  nombre: 'ANA',
  apellido: 'RUIZ',
  celular: '0981555111',
};
export const BETO = {
  numero_documento: '5678901',
  pin: '628143',
  nombre: 'BETO',
  apellido: 'SOSA',
  celular: '0981555222',
};

/** Logs in with cédula and PIN; the session cookie's value (undefined: refused). */
export async function loginAs(t: TestApp, p: typeof ANA, pin = p.pin): Promise<string | undefined> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { numero_documento: p.numero_documento, pin },
  });
  return res.cookies.find((c) => c.name === 'sid')?.value;
}

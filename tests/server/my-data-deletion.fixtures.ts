import { upsertPatient } from '../../server/patients/service';
import type { MemorySms, TestApp } from './helpers';
import { ANA, BETO } from './my-data-patients';

export { ANA, BETO };

export const WAIT_MS = 24 * 3_600_000;
type Person = typeof ANA;

/** The calls of 'Eliminar mi cuenta' and login, as a browser makes them. */
export function deletionClient(t: TestApp) {
  const sms = t.ctx.sms as MemorySms;
  const login = (p: Person, pin = p.pin) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { numero_documento: p.numero_documento, pin },
    });
  const sidOf = async (p: Person) => (await login(p)).cookies.find((c) => c.name === 'sid')?.value;
  const post = (url: string, sid: string | undefined, payload?: object) =>
    t.app.inject({ method: 'POST', url, cookies: sid ? { sid } : {}, payload: payload ?? {} });
  const askCode = (sid: string | undefined, pin: string) =>
    post('/api/mis-datos/eliminar/codigo', sid, { pin });
  const confirm = (sid: string | undefined, codigo: string) =>
    post('/api/mis-datos/eliminar', sid, { codigo });
  const cancel = (sid: string | undefined) => post('/api/mis-datos/eliminar/cancelar', sid);
  const status = (sid: string | undefined) =>
    t.app.inject({ method: 'GET', url: '/api/mis-datos/eliminar', cookies: sid ? { sid } : {} });
  /** PIN, code, confirmation: the pending deletion's answer. */
  const ask = async (p: Person, sid: string) => {
    const code = await askCode(sid, p.pin);
    if (code.statusCode !== 200) throw new Error(`askCode ${code.statusCode} ${code.body}`);
    return confirm(sid, sms.lastCode(p.celular));
  };
  return { sms, login, sidOf, askCode, confirm, cancel, status, ask };
}

export async function seedBoth(t: TestApp) {
  return {
    ana: (await upsertPatient(t.ctx, ANA)).id,
    beto: (await upsertPatient(t.ctx, BETO)).id,
  };
}

import { beforeEach, describe, expect, it } from 'vitest';
import { upsertPatient } from '../../server/patients/service';
import { createSession } from '../../server/session/service';
import { useTestApp, type TestApp } from './helpers';

const PATIENT = { numero_documento: '4567890', pin: '739154', nombre: 'ANA', apellido: 'RUIZ' };

describe('GET /api/auth/session and POST /api/auth/logout', () => {
  // One app for the file (opening PGlite is the slow part), emptied and its clock rewound per test.
  const h = useTestApp({ env: { SESSION_IDLE_MINUTES: '15', SESSION_ABSOLUTE_HOURS: '12' } });
  let t: TestApp;
  let patientId: string;
  beforeEach(async () => {
    t = h.t;
    patientId = (await upsertPatient(t.ctx, PATIENT)).id;
  });

  const session = (cookie?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/auth/session',
      cookies: cookie ? { sid: cookie } : {},
    });
  /** A session as a login opens it (tests/server/login.test.ts logs in through the API). */
  const openSession = async () => (await createSession(t.ctx, patientId)).token;

  it('reports the patient for a live session and nothing without one', async () => {
    expect((await session()).json()).toEqual({ authenticated: false });
    expect((await session('forged-token')).json()).toEqual({ authenticated: false });
    const sid = await openSession();
    const res = (await session(sid)).json();
    expect(res).toMatchObject({
      authenticated: true,
      patient: { nombre: 'ANA', apellido: 'RUIZ' },
    });
  });

  it('expires after 15 idle minutes, and each use refreshes the idle timer', async () => {
    const sid = await openSession();
    t.clock.advance(14 * 60_000);
    expect((await session(sid)).json().authenticated).toBe(true);
    t.clock.advance(14 * 60_000);
    expect((await session(sid)).json().authenticated).toBe(true);
    t.clock.advance(15 * 60_000 + 1);
    expect((await session(sid)).json().authenticated).toBe(false);
  });

  it('expires after 12 hours whatever the activity', async () => {
    const sid = await openSession();
    for (let i = 0; i < 51; i++) {
      t.clock.advance(14 * 60_000);
      expect((await session(sid)).json().authenticated).toBe(true);
    }
    // 51 x 14 min = 11.9 h: still alive; the next use is past 12 h.
    for (let i = 0; i < 1; i++) {
      t.clock.advance(14 * 60_000);
      await session(sid);
    }
    expect((await session(sid)).json().authenticated).toBe(false);
  });

  it('logout ends the server session; the old cookie no longer works', async () => {
    const sid = await openSession();
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      payload: {},
      cookies: { sid },
    });
    expect(out.statusCode).toBe(200);
    expect(out.json().success).toBe(true);
    expect((await session(sid)).json().authenticated).toBe(false);
    // Logout without a session still answers success.
    const again = await t.app.inject({ method: 'POST', url: '/api/auth/logout', payload: {} });
    expect(again.json().success).toBe(true);
  });

  it('stores only a hash of the session token', async () => {
    const sid = await openSession();
    const { rows } = await t.ctx.db.query<{ id_hash: string }>('SELECT id_hash FROM sessions');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.id_hash).not.toBe(sid);
    expect(rows[0]?.id_hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

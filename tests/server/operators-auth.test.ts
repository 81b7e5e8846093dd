import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OPERATOR_HOST_IS_IP, type OperatorRole } from '../../contract/operators';
import type { AppContext } from '../../server/context';
import { installErrorHandling } from '../../server/http/errors';
import { revokeOperator } from '../../server/operators/accounts';
import { operatorMessages } from '../../server/operators/messages';
import {
  createOperator,
  operatorAuthPlugin,
  requireOperator,
  startOperatorSession,
} from '../../server/operators/auth';
import { hashToken } from '../../server/operators/tokens';
import { upsertPatient } from '../../server/patients/service';
import { createSession } from '../../server/session/service';
import { useTestApp, type TestApp } from './helpers';
import { SoftAuthenticator } from './webauthn-authenticator';

/** app.inject's default Host is localhost:80: the page's origin as a browser writes it. */
const ORIGIN = 'http://localhost';
const SAME_ORIGIN = { origin: ORIGIN, 'sec-fetch-site': 'same-origin' };
const API = '/api/operador';
const MINUTE = 60_000;

type Json = Record<string, unknown>;

describe('operator accounts, passkeys and sessions (issue 30)', () => {
  const h = useTestApp({
    env: { OPERATOR_SESSION_IDLE_MINUTES: '15', OPERATOR_SESSION_HOURS: '8' },
  });
  let t: TestApp;
  beforeEach(() => {
    t = h.t;
  });

  const post = (
    url: string,
    payload: Json,
    opts: { cookie?: string; headers?: Record<string, string> } = {},
  ) =>
    t.app.inject({
      method: 'POST',
      url: `${API}${url}`,
      payload,
      headers: opts.headers ?? SAME_ORIGIN,
      cookies: opts.cookie ? { operador_sesion: opts.cookie } : {},
    });
  const session = (cookies: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: `${API}/sesion`, cookies });
  const sessionCookie = (res: LightMyRequestResponse) =>
    res.cookies.find((c) => c.name === 'operador_sesion');

  const newOperator = (usuario = 'ana.rojas', rol: OperatorRole = 'revisor') =>
    createOperator(t.ctx.db, { usuario, nombre: 'Ana Rojas', rol }, t.clock);

  /** Opens the enrolment link and registers the authenticator's passkey: the verify's answer. */
  async function enrol(token: string, auth = new SoftAuthenticator(ORIGIN)) {
    const options = await post('/alta/opciones', { token });
    expect(options.statusCode).toBe(200);
    const response = auth.register(options.json<{ options: Json }>().options);
    return post('/alta/verificar', { token, response });
  }

  /** An operator with a registered passkey. */
  async function enrolled(usuario = 'ana.rojas', rol: OperatorRole = 'revisor') {
    const { id, enrolToken } = await newOperator(usuario, rol);
    const auth = new SoftAuthenticator(ORIGIN);
    expect((await enrol(enrolToken, auth)).statusCode).toBe(200);
    return { id, auth };
  }

  async function loginOptions() {
    const res = await post('/ingreso/opciones', {});
    expect(res.statusCode).toBe(200);
    return res.json<{ challengeId: string; options: Json }>();
  }

  async function login(
    auth: SoftAuthenticator,
    overrides: Parameters<typeof auth.authenticate>[1] = {},
  ) {
    const { challengeId, options } = await loginOptions();
    return post('/ingreso/verificar', {
      challengeId,
      response: auth.authenticate(options, overrides),
    });
  }

  describe('enrolment through the one-time link', () => {
    it('registers a discoverable, user-verified passkey and logs the operator in', async () => {
      const { id, enrolToken, expiresAt } = await newOperator('ana.rojas', 'supervisor');
      expect(expiresAt.getTime() - t.clock.now()).toBe(24 * 60 * MINUTE);
      const options = await post('/alta/opciones', { token: enrolToken });
      expect(options.statusCode).toBe(200);
      const body = options.json();
      expect(body.operator).toEqual({
        usuario: 'ana.rojas',
        nombre: 'Ana Rojas',
        rol: 'supervisor',
      });
      expect(body.options.rp.id).toBe('localhost');
      expect(body.options.authenticatorSelection).toMatchObject({
        residentKey: 'required',
        userVerification: 'required',
      });
      const auth = new SoftAuthenticator(ORIGIN);
      const res = await post('/alta/verificar', {
        token: enrolToken,
        response: auth.register(body.options),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().operator.usuario).toBe('ana.rojas');
      const set = sessionCookie(res)!;
      expect(set).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/operador' });
      expect(set.maxAge).toBe(8 * 3600);
      const who = await session({ operador_sesion: set.value });
      expect(who.statusCode).toBe(200);
      expect(who.json().operator).toEqual(body.operator);

      // Only hashes of the link's token and of the session cookie are stored.
      const stored = await t.ctx.db.query<{ token_hash: string }>(
        'SELECT token_hash FROM operator_enrolments WHERE operator_id = $1',
        [id],
      );
      expect(stored.rows.map((r) => r.token_hash)).toEqual([hashToken(enrolToken)]);
      const sessions = await t.ctx.db.query<{ id_hash: string }>(
        'SELECT id_hash FROM operator_sessions',
      );
      expect(sessions.rows).toEqual([{ id_hash: hashToken(set.value) }]);
      const creds = await t.ctx.db.query<{ id: string; transports: string }>(
        'SELECT id, transports FROM operator_credentials WHERE operator_id = $1',
        [id],
      );
      expect(creds.rows).toEqual([{ id: auth.id, transports: 'internal' }]);
    });

    it('spends the link once: of two verifies at once, one wins; the link is dead after', async () => {
      const { enrolToken } = await newOperator();
      const options = (await post('/alta/opciones', { token: enrolToken })).json().options;
      const [a, b] = [new SoftAuthenticator(ORIGIN), new SoftAuthenticator(ORIGIN)];
      const results = await Promise.all([
        post('/alta/verificar', { token: enrolToken, response: a.register(options) }),
        post('/alta/verificar', { token: enrolToken, response: b.register(options) }),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
      const creds = await t.ctx.db.query('SELECT 1 FROM operator_credentials');
      expect(creds.rows).toHaveLength(1);
      const again = await post('/alta/opciones', { token: enrolToken });
      expect(again.statusCode).toBe(400);
      expect(again.json().message).toMatch(/enlace de alta no es válido/);
    });

    it('refuses an expired link, an unknown one and a registration for another origin', async () => {
      const { enrolToken } = await newOperator();
      t.clock.advance(24 * 60 * MINUTE + 1);
      expect((await post('/alta/opciones', { token: enrolToken })).statusCode).toBe(400);

      const fresh = await newOperator('beto.paez');
      const options = (await post('/alta/opciones', { token: fresh.enrolToken })).json().options;
      const auth = new SoftAuthenticator(ORIGIN);
      const foreign = await post('/alta/verificar', {
        token: fresh.enrolToken,
        response: auth.register(options, { origin: 'https://evil.example' }),
      });
      expect(foreign.statusCode).toBe(400);
      expect(sessionCookie(foreign)).toBeUndefined();
      // The link was not spent by the refused attempt.
      expect((await enrol(fresh.enrolToken)).statusCode).toBe(200);

      const unknown = await post('/alta/opciones', { token: 'A'.repeat(43) });
      expect(unknown.statusCode).toBe(400);
    });

    it('refuses an enrolment whose challenge is older than 5 minutes', async () => {
      const { enrolToken } = await newOperator();
      const options = (await post('/alta/opciones', { token: enrolToken })).json().options;
      t.clock.advance(5 * MINUTE + 1);
      const res = await post('/alta/verificar', {
        token: enrolToken,
        response: new SoftAuthenticator(ORIGIN).register(options),
      });
      expect(res.statusCode).toBe(400);
    });

    it('answers garbage with a Spanish 400, never a 500', async () => {
      const { enrolToken } = await newOperator();
      await post('/alta/opciones', { token: enrolToken });
      const bodies: Json[] = [
        {},
        { token: 'short' },
        { token: enrolToken },
        { token: enrolToken, response: {} },
        { token: enrolToken, response: { id: 'x', rawId: 'x', type: 'public-key', response: {} } },
        {
          token: enrolToken,
          response: {
            id: 'AAAA',
            rawId: 'AAAA',
            type: 'public-key',
            response: { clientDataJSON: 'bm90IGpzb24', attestationObject: 'AAAA' },
            clientExtensionResults: {},
          },
        },
      ];
      for (const payload of bodies) {
        const res = await post('/alta/verificar', payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().message).toMatch(/[áéíóú]|enlace|llave/);
      }
    });
  });

  describe('login with the passkey', () => {
    it('logs in with a discoverable passkey (no user name) and starts a session', async () => {
      const { auth } = await enrolled();
      const { options } = await loginOptions();
      expect(options.allowCredentials ?? []).toEqual([]);
      expect(options.userVerification).toBe('required');
      const res = await login(auth);
      expect(res.statusCode).toBe(200);
      expect(res.json().operator).toEqual({
        usuario: 'ana.rojas',
        nombre: 'Ana Rojas',
        rol: 'revisor',
      });
      const cookieValue = sessionCookie(res)!.value;
      expect((await session({ operador_sesion: cookieValue })).statusCode).toBe(200);
    });

    it('refuses a wrong signature, another origin and an unknown passkey (401)', async () => {
      const { auth } = await enrolled();
      expect((await login(auth, { tamper: true })).statusCode).toBe(401);
      expect((await login(auth, { origin: 'https://evil.example' })).statusCode).toBe(401);
      const stranger = new SoftAuthenticator(ORIGIN);
      const refused = await login(stranger);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().message).toMatch(/llave de acceso/);
      expect(sessionCookie(refused)).toBeUndefined();
      // The genuine passkey still works.
      expect((await login(auth)).statusCode).toBe(200);
    });

    it('spends the challenge once: a replay and an expired challenge are refused', async () => {
      const { auth } = await enrolled();
      const { challengeId, options } = await loginOptions();
      const response = auth.authenticate(options);
      expect((await post('/ingreso/verificar', { challengeId, response })).statusCode).toBe(200);
      const replay = await post('/ingreso/verificar', { challengeId, response });
      expect(replay.statusCode).toBe(400);

      const late = await loginOptions();
      t.clock.advance(5 * MINUTE + 1);
      const res = await post('/ingreso/verificar', {
        challengeId: late.challengeId,
        response: auth.authenticate(late.options),
      });
      expect(res.statusCode).toBe(400);
    });

    it('refuses a signature counter going back (a cloned passkey)', async () => {
      const { auth } = await enrolled();
      expect((await login(auth)).statusCode).toBe(200);
      expect((await login(auth)).statusCode).toBe(200);
      auth.counter -= 2;
      expect((await login(auth)).statusCode).toBe(401);
    });

    it('refuses a revoked operator and ends their sessions at once', async () => {
      const { auth } = await enrolled();
      const cookieValue = sessionCookie(await login(auth))!.value;
      expect(await revokeOperator(t.ctx.db, 'ana.rojas', t.clock)).toBe(true);
      expect((await session({ operador_sesion: cookieValue })).statusCode).toBe(401);
      expect((await login(auth)).statusCode).toBe(401);
    });

    it('answers garbage with a Spanish 400, never a 500', async () => {
      const { challengeId } = await loginOptions();
      for (const payload of [
        {},
        { challengeId },
        { challengeId, response: 'x' },
        { challengeId, response: { id: 1 } },
        { challengeId: 'x'.repeat(65), response: {} },
      ]) {
        const res = await post('/ingreso/verificar', payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      }
    });

    it('limits login calls per address (429 with Retry-After)', async () => {
      for (let i = 0; i < 40; i++)
        expect((await post('/ingreso/opciones', {})).statusCode).toBe(200);
      const res = await post('/ingreso/opciones', {});
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    });
  });

  describe('sessions', () => {
    it('end after 15 idle minutes; each request refreshes the idle limit', async () => {
      const { id } = await newOperator();
      const { value } = await startOperatorSession(t.ctx, id);
      t.clock.advance(14 * MINUTE);
      expect((await session({ operador_sesion: value })).statusCode).toBe(200);
      t.clock.advance(14 * MINUTE);
      expect((await session({ operador_sesion: value })).statusCode).toBe(200);
      t.clock.advance(15 * MINUTE + 1);
      const res = await session({ operador_sesion: value });
      expect(res.statusCode).toBe(401);
      expect(sessionCookie(res)?.value).toBe('');
    });

    it('end after 8 hours however active', async () => {
      const { id } = await newOperator();
      const { value } = await startOperatorSession(t.ctx, id);
      for (let elapsed = 0; elapsed < 8 * 60 - 10; elapsed += 10) {
        t.clock.advance(10 * MINUTE);
        expect((await session({ operador_sesion: value })).statusCode).toBe(200);
      }
      t.clock.advance(10 * MINUTE);
      expect((await session({ operador_sesion: value })).statusCode).toBe(401);
    });

    it('a patient session cookie never authenticates an operator route', async () => {
      const patient = await upsertPatient(t.ctx, {
        numero_documento: '4567890',
        pin: '739154',
        nombre: 'ANA',
        apellido: 'RUIZ',
      });
      const { token } = await createSession(t.ctx, patient.id);
      expect((await session({ sid: token })).statusCode).toBe(401);
      expect((await session({ operador_sesion: token })).statusCode).toBe(401);
      expect((await session({})).statusCode).toBe(401);
    });

    it('logging out ends the session', async () => {
      const { id } = await newOperator();
      const { value } = await startOperatorSession(t.ctx, id);
      const out = await post('/salir', {}, { cookie: value });
      expect(out.statusCode).toBe(200);
      expect(sessionCookie(out)?.value).toBe('');
      expect((await session({ operador_sesion: value })).statusCode).toBe(401);
    });
  });

  describe('requireOperator on a route of the back office', () => {
    let app: FastifyInstance;
    afterEach(async () => {
      await app?.close();
    });

    /** An app with one supervisor-only POST guarded like the case routes. */
    /** The log lines the guarded app wrote (JSON), from warn up. */
    let logged: string[] = [];
    async function guarded(ctx: AppContext = t.ctx) {
      logged = [];
      app = Fastify({
        logger: { level: 'warn', stream: { write: (line: string) => void logged.push(line) } },
      });
      installErrorHandling(app);
      await app.register(cookie);
      await app.register(operatorAuthPlugin, { ctx });
      await app.register(
        async (scoped) => {
          scoped.post('/decidir', { preHandler: requireOperator(['supervisor']) }, async (req) => ({
            usuario: req.operator!.usuario,
          }));
          scoped.get('/casos', { preHandler: requireOperator() }, async (req) => ({
            rol: req.operator!.rol,
          }));
        },
        { prefix: API },
      );
      await app.ready();
      return app;
    }
    const call = (
      method: 'GET' | 'POST',
      url: string,
      value: string,
      headers: Record<string, string> = SAME_ORIGIN,
    ) =>
      app.inject({
        method,
        url: `${API}${url}`,
        headers,
        cookies: { operador_sesion: value },
        ...(method === 'POST' ? { payload: {} } : {}),
      });

    it('checks the role: 403 for a revisor, 200 for a supervisor', async () => {
      await guarded();
      const revisor = await startOperatorSession(t.ctx, (await newOperator('rev', 'revisor')).id);
      const supervisor = await startOperatorSession(
        t.ctx,
        (await newOperator('sup', 'supervisor')).id,
      );
      const refused = await call('POST', '/decidir', revisor.value);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toMatch(/rol/);
      expect((await call('GET', '/casos', revisor.value)).json()).toEqual({ rol: 'revisor' });
      const ok = await call('POST', '/decidir', supervisor.value);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ usuario: 'sup' });
      expect((await call('GET', '/casos', 'forged')).statusCode).toBe(401);
    });

    it('refuses cross-site POSTs (Origin, Sec-Fetch-Site, or neither) with 403', async () => {
      await guarded();
      const { value } = await startOperatorSession(
        t.ctx,
        (await newOperator('sup', 'supervisor')).id,
      );
      const refusedHeaders: Record<string, string>[] = [
        { origin: 'https://evil.example' },
        { origin: 'http://localhost:8080' },
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site', origin: ORIGIN },
        { origin: 'null' },
        {},
      ];
      for (const headers of refusedHeaders) {
        const res = await call('POST', '/decidir', value, headers);
        expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      }
      expect((await call('POST', '/decidir', value, { origin: ORIGIN })).statusCode).toBe(200);
      expect(
        (await call('POST', '/decidir', value, { 'sec-fetch-site': 'same-origin' })).statusCode,
      ).toBe(200);
      // A GET is not refused for where it comes from (it changes nothing).
      expect(
        (await call('GET', '/casos', value, { 'sec-fetch-site': 'cross-site' })).statusCode,
      ).toBe(200);
    });

    it('uses the configured origin and relying party (OPERATOR_ORIGIN), refusing the request host', async () => {
      const portal = 'https://portal.example';
      await guarded({
        ...t.ctx,
        operators: { ...t.ctx.operators, origin: portal, rpId: 'portal.example' },
        config: { ...t.ctx.config, session: { ...t.ctx.config.session, cookieSecure: true } },
      });
      const { enrolToken } = await newOperator('sup', 'supervisor');
      const at = (url: string, payload: Json, origin = portal) =>
        app.inject({ method: 'POST', url: `${API}${url}`, payload, headers: { origin } });
      expect((await at('/alta/opciones', { token: enrolToken }, ORIGIN)).statusCode).toBe(403);
      const options = (await at('/alta/opciones', { token: enrolToken })).json().options;
      expect(options.rp.id).toBe('portal.example');
      const auth = new SoftAuthenticator(portal);
      const res = await at('/alta/verificar', {
        token: enrolToken,
        response: auth.register(options),
      });
      expect(res.statusCode).toBe(200);
      expect(sessionCookie(res)!.secure).toBe(true); // COOKIE_SECURE
      const value = sessionCookie(res)!.value;
      expect((await call('POST', '/decidir', value, { origin: portal })).statusCode).toBe(200);
      expect((await call('POST', '/decidir', value, { origin: ORIGIN })).statusCode).toBe(403);
    });

    it('in production without a configured origin, enrolment and login answer 503', async () => {
      await guarded({
        ...t.ctx,
        operators: { ...t.ctx.operators, origin: null, rpId: null, requireConfiguredOrigin: true },
      });
      const res = await app.inject({
        method: 'POST',
        url: `${API}/ingreso/opciones`,
        payload: {},
        headers: SAME_ORIGIN,
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toMatch(/operadores/);
      // Said once at start, before any operator tries: the operator of the server sees it first.
      expect(logged.filter((l) => l.includes('"operator_origin_unset"')).length).toBe(2);
      expect(logged[0]).toContain('Set PUBLIC_URL or OPERATOR_ORIGIN');
    });

    it('says nothing at start when the origin is configured', async () => {
      await guarded({
        ...t.ctx,
        operators: {
          ...t.ctx.operators,
          origin: 'https://portal.example.com.py',
          requireConfiguredOrigin: true,
        },
      });
      expect(logged.join('')).not.toContain('operator_origin_unset');
    });

    it('takes the login limit from the settings (OPERATOR_LOGIN_PER_10_MIN)', async () => {
      await guarded({
        ...t.ctx,
        operators: { ...t.ctx.operators, limits: { ...t.ctx.operators.limits, login: 3 } },
      });
      const options = () =>
        app.inject({
          method: 'POST',
          url: `${API}/ingreso/opciones`,
          payload: {},
          headers: SAME_ORIGIN,
        });
      for (let i = 0; i < 3; i++) expect((await options()).statusCode).toBe(200);
      expect((await options()).statusCode).toBe(429);
    });

    it('refuses to bind passkeys to an IP address (browsers would refuse them): 503', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}/ingreso/opciones`,
        payload: {},
        headers: { host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' },
      });
      expect(res.statusCode).toBe(503);
      // Said as what to do, with its reason for the page, not as an outage (issue 43 item 3).
      expect(res.json()).toEqual({
        success: false,
        message: operatorMessages.hostIsIp,
        reason: OPERATOR_HOST_IS_IP,
      });
      expect(operatorMessages.hostIsIp).toMatch(/localhost/);
      const named = await t.app.inject({
        method: 'POST',
        url: `${API}/ingreso/opciones`,
        payload: {},
        headers: { host: 'localhost:3000', origin: 'http://localhost:3000' },
      });
      expect(named.statusCode).toBe(200);
      expect(named.json().options.rpId).toBe('localhost');
      const garbage = await t.app.inject({
        method: 'POST',
        url: `${API}/ingreso/opciones`,
        payload: {},
        headers: { host: 'a b<>', 'sec-fetch-site': 'same-origin' },
      });
      expect(garbage.statusCode).toBe(400);
    });
  });
});

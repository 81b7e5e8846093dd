import { beforeEach, describe, expect, it } from 'vitest';
import { runOperatorsCommand } from '../../server/operators/command';
import { useTestApp, type TestApp } from './helpers';

/**
 * `npm run operadores` through the function server/cli/operadores.ts runs, on the test app's
 * database (the CLI only adds opening it: server/cli/db.ts, covered by the kiosk and patients
 * commands' live tests).
 */
describe('npm run operadores (issue 30)', () => {
  const h = useTestApp();
  let t: TestApp;
  let opened: number;
  beforeEach(() => {
    t = h.t;
    opened = 0;
  });

  async function run(argv: string[], publicUrl?: string, host = '127.0.0.1') {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const code = await runOperatorsCommand(argv, {
      db: async () => {
        opened += 1;
        return Object.assign(Object.create(t.ctx.db) as typeof t.ctx.db, { via: 'test' });
      },
      config: { host, port: 3000 },
      operators: { publicUrl },
      clock: t.clock,
      out: { log: (l) => stdout.push(l), error: (l) => stderr.push(l) },
    });
    return {
      code,
      json:
        stdout.length === 1
          ? (JSON.parse(stdout[0]!) as Record<string, unknown> & {
              link: string;
              operators: Record<string, unknown>[];
            })
          : null,
      stdout,
      stderr: stderr.join('\n'),
    };
  }
  const tokenOf = (link: string) => link.split('#')[1]!;
  const enrolOptions = (token: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/operador/alta/opciones',
      payload: { token },
      headers: { origin: 'http://localhost' },
    });

  it('add prints one JSON line with the one-time enrolment link (24 h) that opens the enrolment', async () => {
    const r = await run([
      'add',
      '--usuario',
      'ana.rojas',
      '--nombre',
      'Ana Rojas',
      '--rol',
      'supervisor',
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toHaveLength(1);
    expect(r.json).toMatchObject({
      ok: true,
      usuario: 'ana.rojas',
      nombre: 'Ana Rojas',
      rol: 'supervisor',
      via: 'test',
      expiresAt: new Date(t.clock.now() + 24 * 3_600_000).toISOString(),
    });
    // HOST is 127.0.0.1: the link says localhost, the address passkeys accept (issue 43 item 3).
    expect(r.json!.link).toMatch(/^http:\/\/localhost:3000\/operador\/alta#[A-Za-z0-9_-]{43}$/);
    expect(r.stderr).toContain(r.json!.link);
    const opened = await enrolOptions(tokenOf(r.json!.link));
    expect(opened.statusCode).toBe(200);
    expect(opened.json().operator).toEqual({
      usuario: 'ana.rojas',
      nombre: 'Ana Rojas',
      rol: 'supervisor',
    });
    // The token itself is nowhere in the database.
    const { rows } = await t.ctx.db.query(
      'SELECT 1 FROM operator_enrolments WHERE token_hash = $1',
      [tokenOf(r.json!.link)],
    );
    expect(rows).toHaveLength(0);
  });

  /** The enrolment's options asked as the browser that opened `link` as printed would. */
  const openAsPrinted = (link: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/operador/alta/opciones',
      payload: { token: tokenOf(link) },
      headers: { host: new URL(link).host, origin: new URL(link).origin },
    });
  const add = (usuario: string, host: string) =>
    run(['add', '--usuario', usuario, '--nombre', 'Ana', '--rol', 'revisor'], undefined, host);

  it('prints a link that works as printed: localhost when HOST is a loopback address (issue 43 item 3)', async () => {
    const hosts = ['127.0.0.1', '127.0.1.1', '::1', '0.0.0.0', '::', 'localhost'];
    for (const [i, host] of hosts.entries()) {
      const r = await add(`ana${i}`, host);
      expect(r.json!.link, host).toMatch(/^http:\/\/localhost:3000\/operador\/alta#/);
      // The warning's words, not /IP/: the link's random token may hold 'IP' (it did, CI 2026-11-29).
      expect(r.stderr, host).not.toMatch(/dirección IP/);
      expect((await openAsPrinted(r.json!.link)).statusCode, host).toBe(200);
    }
  });

  it('another IP address is printed as it is, with what to do: passkeys need a host name', async () => {
    const r = await add('ana', '192.168.1.20');
    expect(r.json!.link).toMatch(/^http:\/\/192\.168\.1\.20:3000\/operador\/alta#/);
    expect(r.stderr).toContain(
      'Las llaves de acceso no funcionan en una dirección IP (192.168.1.20): definí OPERATOR_ORIGIN o PUBLIC_URL con el nombre del sitio',
    );
  });

  it('uses the configured public URL as the link base', async () => {
    const r = await run(
      ['add', '--usuario', 'beto', '--nombre', 'Beto', '--rol', 'revisor'],
      'https://portal.example/',
    );
    expect(r.json!.link).toMatch(/^https:\/\/portal\.example\/operador\/alta#/);
  });

  it('refuses bad values (exit 1) and bad usage (exit 2, the database untouched)', async () => {
    for (const argv of [
      ['add', '--usuario', 'Ana', '--nombre', 'Ana', '--rol', 'revisor'],
      ['add', '--usuario', 'ab', '--nombre', 'Ana', '--rol', 'revisor'],
      ['add', '--usuario', 'a'.repeat(33), '--nombre', 'Ana', '--rol', 'revisor'],
      ['add', '--usuario', 'ana', '--nombre', '<b>Ana</b>', '--rol', 'revisor'],
      ['add', '--usuario', 'ana', '--nombre', 'x'.repeat(81), '--rol', 'revisor'],
      ['add', '--usuario', 'ana', '--nombre', 'Ana', '--rol', 'admin'],
    ]) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(1);
      expect(r.json!.ok).toBe(false);
    }
    expect(
      (await run(['add', '--usuario', 'ana', '--nombre', 'Ana', '--rol', 'revisor'])).code,
    ).toBe(0);
    const dup = await run(['add', '--usuario', 'ana', '--nombre', 'Otra', '--rol', 'revisor']);
    expect(dup.code).toBe(1);
    expect(dup.json!.error).toMatch(/already exists/);

    opened = 0;
    for (const argv of [
      [],
      ['add', '--usuario', 'x'],
      ['list', 'extra'],
      ['revoke'],
      ['revoke', '--usuario', 'ana', '--rol', 'revisor'],
      ['delete', '--usuario', 'ana'],
      ['add', '--usuario'],
    ]) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/Usage/);
    }
    expect(opened).toBe(0);
  });

  it('list, revoke (the link dies) and enlace (a new link, reinstating; older links die)', async () => {
    const added = await run(['add', '--usuario', 'ana', '--nombre', 'Ana', '--rol', 'revisor']);
    const first = tokenOf(added.json!.link);
    let list = (await run(['list'])).json!;
    expect(list.operators).toEqual([
      expect.objectContaining({
        usuario: 'ana',
        nombre: 'Ana',
        rol: 'revisor',
        revoked_at: null,
        passkeys: 0,
        enrolment_pending: true,
      }),
    ]);

    const renewed = await run(['enlace', '--usuario', 'ana']);
    expect(renewed.code).toBe(0);
    expect(renewed.json).toMatchObject({ ok: true, usuario: 'ana', reinstated: false });
    const second = tokenOf(renewed.json!.link);
    expect(second).not.toBe(first);
    expect((await enrolOptions(first)).statusCode).toBe(400);
    expect((await enrolOptions(second)).statusCode).toBe(200);

    const revoked = await run(['revoke', '--usuario', 'ana']);
    expect(revoked).toMatchObject({ code: 0, json: { ok: true, usuario: 'ana' } });
    expect((await enrolOptions(second)).statusCode).toBe(400);
    list = (await run(['list'])).json!;
    expect(list.operators[0]!.revoked_at).not.toBeNull();
    expect(list.operators[0]!.enrolment_pending).toBe(false);
    expect((await run(['revoke', '--usuario', 'ana'])).code).toBe(1);

    const back = await run(['enlace', '--usuario', 'ana']);
    expect(back.json).toMatchObject({ ok: true, reinstated: true });
    expect((await enrolOptions(tokenOf(back.json!.link))).statusCode).toBe(200);

    expect((await run(['enlace', '--usuario', 'nadie'])).code).toBe(1);
  });
});

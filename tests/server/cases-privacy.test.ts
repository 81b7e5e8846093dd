import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { purgeCases } from '../../server/cases/retention';
import { revokeOperator } from '../../server/operators/accounts';
import { auditRows, ID_DATA, useCaseApps } from './cases-fixtures';

/**
 * Assisted verification's privacy and audit (issue 42 item 3), through the routes and the
 * database: a correction's reason is not in the never-purged audit log (L1); refused looks are
 * audited; a revoked operator's claims are released at once; the operator's session is checked
 * before a body is read. PGlite, and PostgreSQL in the PostgreSQL tier.
 */

const { h, p, op } = useCaseApps();
const MINUTE = 60_000;
const DAY = 86_400_000;

const reviewCase = (phone?: string) => p.reviewCase(phone);

const claim = async (name: Parameters<typeof op.post>[0]) =>
  (await op.post(name, '/casos/tomar')).json().caseId as string | null;

/** Every value of the case's fields, as they would leak into a log. */
const fieldValues = Object.values(ID_DATA).filter((v) => v.length > 2);

describe("a correction's reason (L1)", () => {
  it('is sealed with the correction on the case, never written to the audit log, and gone at purge', async () => {
    const { id } = await reviewCase();
    await claim('ana');
    const reason = 'La paciente dice que su madre se llama Benítez';
    const res = await op.post('ana', `/casos/${id}/campos`, {
      field: 'FullName',
      value: 'GONZÁLEZ BENÍTEZ MARÍA JOSEFA',
      reason,
    });
    expect(res.statusCode).toBe(200);
    // The operator still reads it on the case.
    const detail = (await op.get('ana', `/casos/${id}`)).json().case;
    expect(detail.corrections[0].reason).toBe(reason);
    // The audit log says which field, nothing typed about the patient.
    const correct = (await auditRows(h.t.ctx)).find((r) => r.action === 'correct')!;
    expect(correct.detail).toEqual({ field: 'FullName' });
    const everything = async () => {
      const { rows } = await h.t.ctx.db.query<{ t: string }>(
        `SELECT (SELECT coalesce(string_agg(detail::text, ' '), '') FROM case_audit) ||
                (SELECT coalesce(string_agg(encode(corrections, 'escape'), ' '), '') FROM cases) AS t`,
      );
      return rows[0]!.t;
    };
    expect(await everything()).not.toContain('madre');
    // Rejected, then purged: the reason goes with the case's sealed parts.
    await op.post('ana', `/casos/${id}/decision`, { decision: 'reject', reason: 'other' });
    h.t.clock.advance(31 * DAY);
    expect((await purgeCases(h.t.ctx)).purged).toBe(1);
    expect(await everything()).not.toContain('madre');
  });

  it('a migration removes the reasons audit rows written before', async () => {
    // As the code before wrote them, straight into the table (the trigger allows INSERT).
    await h.t.ctx.db.query(
      `INSERT INTO case_audit (case_id, operator_id, operator_usuario, action, detail, at)
       VALUES (NULL, 'x', 'ana', 'correct', '{"field":"Gender","reason":"Dijo que es su tía"}', now()),
              (NULL, 'x', 'ana', 'reject', '{"reason":"other","note":true}', now())`,
    );
    const sql = readFileSync(
      new URL('../../server/db/migrations/027_case_audit_reasons.sql', import.meta.url),
      'utf8',
    );
    const statements = sql
      .split(/;\s*(?:\n|$)/)
      .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
      .filter(Boolean);
    await h.t.ctx.db.transaction(async (tx) => {
      for (const s of statements) await tx.query(s);
    });
    expect((await auditRows(h.t.ctx)).map((r) => r.detail)).toEqual([
      { field: 'Gender' },
      { reason: 'other', note: true },
    ]);
    // Append-only again afterwards.
    await expect(h.t.ctx.db.query('DELETE FROM case_audit')).rejects.toThrow(/append-only/);
  });
});

describe('refused looks', () => {
  it('a look at a case held by someone else is audited as refused: who, which case, why; no data', async () => {
    const { id } = await reviewCase();
    expect(await claim('ana')).toBe(id);
    expect((await op.get('beto', `/casos/${id}`)).statusCode).toBe(403);
    expect((await op.get('beto', `/casos/${id}/imagen/selfie`)).statusCode).toBe(403);
    expect(
      (
        await op.post('beto', `/casos/${id}/campos`, {
          field: 'Gender',
          value: 'M',
          reason: 'Lectura equivocada',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await op.post('beto', `/casos/${id}/decision`, { decision: 'reject', reason: 'other' }))
        .statusCode,
    ).toBe(403);
    expect((await op.post('beto', `/casos/${id}/soltar`)).statusCode).toBe(403);
    const refused = (await auditRows(h.t.ctx)).filter((r) => r.action === 'refused');
    expect(refused).toEqual(
      ['view', 'image:selfie', 'correct', 'decision', 'release'].map((look) => ({
        case_id: id,
        operator_usuario: 'beto',
        action: 'refused',
        detail: { look, status: 403, why: 'not_yours' },
      })),
    );
    const text = JSON.stringify(await auditRows(h.t.ctx));
    for (const value of fieldValues) expect(text).not.toContain(value);
  });

  it('an idle claim, a decided case and a case nobody holds: refused and audited with why', async () => {
    const { id } = await reviewCase();
    await claim('ana');
    h.t.clock.advance(31 * MINUTE);
    expect((await op.get('ana', `/casos/${id}`)).statusCode).toBe(409);
    await op.post('beto', '/casos/tomar');
    const digest = (await op.get('beto', `/casos/${id}`)).json().case.digest;
    expect(
      (await op.post('beto', `/casos/${id}/decision`, { decision: 'approve', digest })).json(),
    ).toMatchObject({ outcome: 'approved' });
    // Decided: someone who took no part in it; and another decision on it.
    expect((await op.get('sofia', `/casos/${id}`)).statusCode).toBe(403);
    expect(
      (await op.post('beto', `/casos/${id}/decision`, { decision: 'reject', reason: 'other' }))
        .statusCode,
    ).toBe(409);
    // A case nobody holds.
    const other = await reviewCase('0981654321');
    expect((await op.get('ana', `/casos/${other.id}`)).statusCode).toBe(403);
    const refused = (await auditRows(h.t.ctx))
      .filter((r) => r.action === 'refused')
      .map((r) => [r.operator_usuario, r.case_id, r.detail]);
    expect(refused).toEqual([
      ['ana', id, { look: 'view', status: 409, why: 'claim_idle' }],
      ['sofia', id, { look: 'view', status: 403, why: 'not_yours' }],
      ['beto', id, { look: 'decision', status: 409, why: 'decided' }],
      ['ana', other.id, { look: 'view', status: 403, why: 'not_yours' }],
    ]);
  });

  it('a code look-up that finds a case held by someone else is audited as refused', async () => {
    const reg = await p.registration();
    const code = (await p.openCase(reg.token, { kind: 'centro' })).json().case.code as string;
    expect((await op.post('ana', '/codigos', { code })).statusCode).toBe(200);
    expect((await op.post('beto', '/codigos', { code })).statusCode).toBe(409);
    const rows = (await auditRows(h.t.ctx)).filter((r) => r.operator_usuario === 'beto');
    expect(rows.map((r) => [r.action, r.detail])).toEqual([
      ['lookup', { found: true }],
      ['refused', { look: 'lookup', status: 409, why: 'held' }],
    ]);
  });
});

describe("a revoked operator's claims", () => {
  it('are released at once, audited, and the case is in the queue for the others', async () => {
    const { id } = await reviewCase();
    expect(await claim('ana')).toBe(id);
    expect(await claim('beto')).toBeNull();
    expect(await revokeOperator(h.t.ctx.db, 'ana', h.t.clock)).toBe(true);
    // No idle time to wait: the queue has it, another operator takes it.
    expect((await op.get('beto', '/casos')).json().total).toBe(1);
    expect(await claim('beto')).toBe(id);
    const release = (await auditRows(h.t.ctx)).find((r) => r.action === 'release')!;
    expect(release).toEqual({
      case_id: id,
      operator_usuario: null,
      action: 'release',
      detail: { cause: 'revoked', operator: 'ana' },
    });
  });
});

describe("the operator's session is checked before a body is read", () => {
  const caseUrl = '/api/operador/casos/11111111-1111-4111-8111-111111111111';
  const post = (url: string, payload: string | Buffer, type: string, cookie?: string) =>
    h.t.app.inject({
      method: 'POST',
      url,
      payload,
      headers: { 'content-type': type, origin: 'http://localhost' },
      ...(cookie ? { cookies: { operador_sesion: cookie } } : {}),
    });

  it('no session: 401 before the JSON is parsed or the photo is read', async () => {
    // Not JSON at all: the parser would say 400; the session is checked first.
    const json = await post(`${caseUrl}/campos`, '{"field": nope', 'application/json');
    expect(json.statusCode).toBe(401);
    // Past the photo's limit (8 MB): the parser would say 413 after reading it.
    const big = Buffer.alloc(h.t.ctx.identitySettings.maxUploadBytes + 1024, 0xff);
    const photo = await post(`${caseUrl}/foto`, big, 'image/jpeg');
    expect(photo.statusCode).toBe(401);
    const stale = await post(`${caseUrl}/decision`, '{', 'application/json', 'x'.repeat(43));
    expect(stale.statusCode).toBe(401);
  });

  it('with a session the body is read as before', async () => {
    const res = await op.raw(
      'ana',
      '/casos/11111111-1111-4111-8111-111111111111/campos',
      '{"field": nope',
    );
    expect(res.statusCode).toBe(400);
  });
});

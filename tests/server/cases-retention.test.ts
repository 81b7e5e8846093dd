import { describe, expect, it } from 'vitest';
import { purgeCases, SEALED } from '../../server/cases/retention';
import { auditRows, logInAgain, useCaseApps } from './cases-fixtures';

/**
 * The cases' retention (issue 30): sealed data deleted CASES_RETENTION_DAYS (30) after the
 * decision, centro codes expired past their deadline; the audit log stays. PGlite, and PostgreSQL
 * in the PostgreSQL tier.
 */

const { h, p, op } = useCaseApps();
const DAY = 86_400_000;

async function row(id: string) {
  const { rows } = await h.t.ctx.db.query<Record<string, unknown>>(
    'SELECT * FROM cases WHERE id = $1',
    [id],
  );
  return rows[0]!;
}

describe('retention', () => {
  it("deletes a decided case's sealed data 30 days after the decision; the record and the audit log stay", async () => {
    const reg = await p.registration();
    await p.openCase(reg.token, { trigger: 'liveness_failed' });
    const id = (await op.post('ana', '/casos/tomar')).json().caseId as string;
    await op.post('ana', `/casos/${id}/campos`, {
      field: 'Gender',
      value: 'M',
      reason: 'Lectura equivocada',
    });
    expect(
      (
        await op.post('ana', `/casos/${id}/decision`, {
          decision: 'reject',
          reason: 'other',
          note: 'Trajo la cédula de su hermano',
        })
      ).statusCode,
    ).toBe(200);
    // The note is sealed on the case; the append-only audit log says only that there was one.
    const rejected = (await auditRows(h.t.ctx)).find((r) => r.action === 'reject')!;
    expect(rejected.detail).toEqual({ reason: 'other', note: true });
    const sealedNote = Buffer.from((await row(id)).reject_note as Uint8Array);
    expect(sealedNote.includes(Buffer.from('hermano'))).toBe(false);

    h.t.clock.advance(30 * DAY - 1000);
    expect(await purgeCases(h.t.ctx)).toEqual({ expired: 0, purged: 0 });
    const kept = await row(id);
    expect(
      ['selfie', 'portrait', 'front', 'back', 'fields', 'corrections'].every(
        (c) => kept[c] !== null,
      ),
    ).toBe(true);

    h.t.clock.advance(2000);
    expect(await purgeCases(h.t.ctx)).toEqual({ expired: 0, purged: 1 });
    const purged = await row(id);
    for (const column of [...SEALED, 'celular', 'code']) expect(purged[column], column).toBeNull();
    expect(purged).toMatchObject({ status: 'rejected', reject_reason: 'other', kind: 'review' });
    expect(purged.purged_at).not.toBeNull();
    const last = (await auditRows(h.t.ctx)).at(-1)!;
    expect(last).toEqual({
      case_id: id,
      operator_usuario: null,
      action: 'purge',
      detail: {
        deleted: [
          'selfie',
          'portrait',
          'front',
          'back',
          'fields',
          'corrections',
          'selfie_embedding',
          'portrait_embedding',
          'reject_note',
          'celular',
        ],
      },
    });
    expect((await auditRows(h.t.ctx)).map((r) => r.action)).toEqual([
      'open',
      'claim',
      'correct',
      'reject',
      'purge',
    ]);
    // Once is enough.
    expect(await purgeCases(h.t.ctx)).toEqual({ expired: 0, purged: 0 });
    // The operator who decided still sees the record, without the data.
    await logInAgain(h.t.ctx, 'ana'); // a month later: a new session
    const detail = (await op.get('ana', `/casos/${id}`)).json().case;
    expect(detail).toMatchObject({ status: 'rejected', images: [], corrections: [] });
    expect(detail.fields.FullName).toBe('');
  });

  it('expires a centro code past its deadline; the patient may choose again, and the data goes 30 days later', async () => {
    const reg = await p.registration();
    const code = (await p.openCase(reg.token, { kind: 'centro' })).json().case.code;
    const [{ id }] = (await h.t.ctx.db.query<{ id: string }>('SELECT id::text AS id FROM cases'))
      .rows as [{ id: string }];
    h.t.clock.advance(30 * DAY + 1000);
    expect(await purgeCases(h.t.ctx)).toEqual({ expired: 1, purged: 0 });
    expect((await row(id)).status).toBe('expired');
    await logInAgain(h.t.ctx, 'ana');
    expect((await op.post('ana', '/codigos', { code })).statusCode).toBe(404);
    // The registration stayed (the case held it) and resumes at the expired case.
    const resumed = await p.resume();
    expect(resumed).toMatchObject({
      resumeAt: 'case',
      case: { status: 'expired', kind: 'centro' },
    });
    // A new case may be opened.
    expect((await p.openCase(resumed.token, { kind: 'centro' })).json().case.status).toBe('open');
    h.t.clock.advance(30 * DAY);
    expect((await purgeCases(h.t.ctx)).purged).toBe(1);
    expect((await row(id)).selfie).toBeNull();
    expect((await auditRows(h.t.ctx)).filter((r) => r.case_id === id).map((r) => r.action)).toEqual(
      ['open', 'expire', 'purge'],
    );
    // The look-up after the deadline found nothing (a miss names no case).
    expect((await auditRows(h.t.ctx)).find((r) => r.action === 'lookup')).toMatchObject({
      case_id: null,
      detail: { found: false },
    });
  });
  it('an open case keeps its registration alive however long it waits (the job renews the hold)', async () => {
    const reg = await p.registration();
    await p.openCase(reg.token);
    h.t.clock.advance(25 * DAY);
    expect(await purgeCases(h.t.ctx)).toEqual({ expired: 0, purged: 0 });
    // Past the first hold (30 days and the resume window), the device's token still names it.
    h.t.clock.advance(15 * DAY);
    expect((await p.caseStatus(reg.token)).json().case).toMatchObject({ status: 'open' });
    expect(await p.resume()).toMatchObject({ resumeAt: 'case', case: { status: 'open' } });
  });
});

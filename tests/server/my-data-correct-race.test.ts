import { describe, expect, it } from 'vitest';
import { correctionsResponse, correctPaths } from '../../contract/my-data-correct';
import { caseDetailResponse } from '../../contract/operators';
import { upsertPatient } from '../../server/patients/service';
import { keptCard, useCaseApps, type OperatorName } from './cases-fixtures';
import { ANA, loginAs } from './my-data-patients';

/**
 * Issue 45 item 5: a correction of the cédula number that races a registration of the same number
 * (or another approval) between the decision's check and its write is a 409 in Spanish, never a
 * 500: the unique index's refusal (23505) is caught where the field is written. PGlite here, and
 * PostgreSQL in the PostgreSQL tier.
 */
const { h, op } = useCaseApps();
const NEW_NUMBER = '7777777';

const claim = async (name: OperatorName) =>
  (await op.post(name, '/casos/tomar')).json().caseId as string | null;
const digestOf = async (name: OperatorName, id: string) =>
  caseDetailResponse.parse((await op.get(name, `/casos/${id}`)).json()).case.digest;
const approve = async (name: OperatorName, id: string) =>
  op.post(name, `/casos/${id}/decision`, { decision: 'approve', digest: await digestOf(name, id) });

/**
 * Makes the number taken between the check and the write: when the patient's number is about to
 * change, another patient with that number is inserted first, in the same transaction (as a
 * registration committed between the two would be seen by the UPDATE's unique index).
 */
async function takeTheNumberAtTheWrite() {
  await h.t.ctx.db.query(`
    CREATE FUNCTION test_take_number() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.numero_documento <> OLD.numero_documento THEN
        INSERT INTO patients (numero_documento, nombre, apellido, pin_hash)
             VALUES (NEW.numero_documento, 'OTRO', 'PACIENTE', 'x');
      END IF;
      RETURN NEW;
    END $$`);
  await h.t.ctx.db.query(`
    CREATE TRIGGER test_take_number BEFORE UPDATE OF numero_documento ON patients
       FOR EACH ROW EXECUTE FUNCTION test_take_number()`);
}

describe('a cédula number correction racing a registration of the number (issue 45 item 5)', () => {
  it('answers 409 in Spanish, writes nothing, and the case can still be decided', async () => {
    const ana = (await upsertPatient(h.t.ctx, ANA)).id;
    const sid = (await loginAs(h.t, ANA))!;
    // Ana's cédula kept on an earlier case: the number may be corrected at a distance.
    await keptCard(h.t.ctx, ana, new Date(h.t.clock.now()));
    const asked = await h.t.app.inject({
      method: 'POST',
      url: correctPaths.requests,
      payload: { field: 'DocumentNumber', value: NEW_NUMBER, reason: 'Mi cédula dice otro número' },
      cookies: { sid },
    });
    expect(asked.statusCode).toBe(200);

    const id = (await claim('ana'))!;
    expect((await approve('ana', id)).json().outcome).toBe('awaiting_supervisor');
    expect(await claim('tomas')).toBe(id);
    await takeTheNumberAtTheWrite();
    const res = await approve('tomas', id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      success: false,
      message: 'Ese número de cédula ya es de otro paciente: no se puede aprobar.',
    });

    // Nothing written: Ana keeps her number, the trigger's patient went with the rollback, the
    // case is still open for a rejection.
    const { rows } = await h.t.ctx.db.query<{ numero_documento: string }>(
      'SELECT numero_documento FROM patients ORDER BY id',
    );
    expect(rows.map((r) => r.numero_documento)).toEqual([ANA.numero_documento]);
    await h.t.ctx.db.query('DROP TRIGGER test_take_number ON patients');
    const rejected = await op.post('tomas', `/casos/${id}/decision`, {
      decision: 'reject',
      reason: 'other',
      note: 'Ese número ya está registrado',
    });
    expect(rejected.statusCode).toBe(200);
    const list = correctionsResponse.parse(
      (
        await h.t.app.inject({ method: 'GET', url: correctPaths.requests, cookies: { sid } })
      ).json(),
    ).requests;
    expect(list[0]).toMatchObject({ state: 'rejected' });
  });
});

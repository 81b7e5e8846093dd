import { describe, expect, it } from 'vitest';
import { caseDetailResponse } from '../../contract/operators';
import { auditRows, evidence, ID_DATA, useCaseApps } from './cases-fixtures';

/**
 * 'Hay un dato mal' on the review (issue 43 item 7): the review case the patient opens carries the
 * field they say was read wrong and what it should say, and the reviewer reads it as the patient's
 * claim, not as a correction (the fields stay as read; an operator corrects by the contract's
 * rules). PGlite, and PostgreSQL in the PostgreSQL tier.
 */

const { h, p, op } = useCaseApps();

async function detailOf(id: string, who: 'ana' | 'beto' = 'ana') {
  return caseDetailResponse.parse((await op.get(who, `/casos/${id}`)).json()).case;
}

async function claimedBy(token: string, claim: unknown) {
  const res = await p.openCase(token, { trigger: 'patient_choice', step: 'front', claim } as never);
  expect(res.statusCode, res.body).toBe(200);
  const id = (await op.post('ana', '/casos/tomar')).json().caseId as string;
  expect(id).toBeTruthy();
  return id;
}

describe("the patient's claim travels with the case", () => {
  it('the reviewer sees the field named and what the patient says it should say; the fields stay as read', async () => {
    const reg = await p.registration('0981123456', evidence());
    const id = await claimedBy(reg.token, { field: 'DateOfBirth', says: '14/04/1990' });
    const detail = await detailOf(id);
    expect(detail.patientClaim).toEqual({ field: 'DateOfBirth', says: '14/04/1990' });
    expect(detail.fields.DateOfBirth).toBe(ID_DATA.DateOfBirth);
    expect(detail.corrections).toEqual([]);
    expect(detail.fieldOrigins.DateOfBirth).not.toBe('operator');
    // The audit log (it outlives the case's data) names the field, never the patient's words.
    const open = (await auditRows(h.t.ctx)).find((r) => r.action === 'open')!;
    expect(open.detail).toMatchObject({ claim: 'DateOfBirth' });
    expect(JSON.stringify(await auditRows(h.t.ctx))).not.toContain('14/04/1990');
  });

  it('the field alone; and a case opened without a claim has none', async () => {
    const reg = await p.registration('0981123456', evidence());
    const id = await claimedBy(reg.token, { field: 'FullName' });
    expect((await detailOf(id)).patientClaim).toEqual({ field: 'FullName' });

    const other = await p.registration('0982123456', evidence());
    expect((await p.openCase(other.token, { trigger: 'document_unreadable' })).statusCode).toBe(
      200,
    );
    const second = (await op.post('beto', '/casos/tomar')).json().caseId as string;
    expect(second).toBeTruthy();
    expect(second).not.toBe(id);
    expect((await detailOf(second, 'beto')).patientClaim).toBeNull();
  });

  it.each([
    ['a field that is not one', { field: 'Password' }],
    ['words too long', { field: 'FullName', says: 'A'.repeat(81) }],
    ['a control character', { field: 'FullName', says: 'ANA\nLOPEZ' }],
  ])('refuses %s with a Spanish 400, and no case opens', async (_l, claim) => {
    const reg = await p.registration('0981123456', evidence());
    const res = await p.openCase(reg.token, { trigger: 'patient_choice', claim } as never);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false });
    expect((await p.caseStatus(reg.token)).json().case).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { caseDetailResponse } from '../../contract/operators';
import { auditRows, evidence, ID_DATA, useCaseApps } from './cases-fixtures';

/**
 * Corrections by the same rules as everything else (issue 42, item 2): each correctable field has
 * its schema in contract/ (the document number as login takes it, the date by the card-date parser,
 * sex, nationality and marital status from their lists); a value that fails is a Spanish 400 that
 * says why, and nothing is kept. PGlite, and PostgreSQL in the PostgreSQL tier.
 */

const { h, p, op } = useCaseApps();

async function claimedCase() {
  const reg = await p.registration('0981123456', evidence());
  expect((await p.openCase(reg.token, { trigger: 'document_unreadable' })).statusCode).toBe(200);
  const id = (await op.post('ana', '/casos/tomar')).json().caseId as string;
  expect(id).toBeTruthy();
  return id;
}

const correct = (id: string, field: string, value: string) =>
  op.post('ana', `/casos/${id}/campos`, { field, value, reason: 'Así figura en la cédula' });

async function detailOf(id: string) {
  return caseDetailResponse.parse((await op.get('ana', `/casos/${id}`)).json()).case;
}

describe('a correction is checked by its field', () => {
  it("the document number as login takes it: 'ABC' and 120 characters are refused", async () => {
    const id = await claimedCase();
    const message =
      'El número de documento tiene de 5 a 12 dígitos, sin puntos ni letras, como para ingresar.';
    for (const value of ['ABC', '1'.repeat(120), '4.567.890', '1234', 'A'.repeat(120)]) {
      const res = await correct(id, 'DocumentNumber', value);
      expect(res.statusCode, value).toBe(400);
      expect(res.json(), value).toEqual({ success: false, message });
    }
    expect((await detailOf(id)).fields.DocumentNumber).toBe(ID_DATA.DocumentNumber);
    expect((await correct(id, 'DocumentNumber', '4567891')).statusCode).toBe(200);
    expect((await detailOf(id)).fields.DocumentNumber).toBe('4567891');
  });

  it('the date of birth by the card-date rule: a date it does not parse is refused; one it parses is kept as AAAA-MM-DD', async () => {
    const id = await claimedCase();
    const message = 'Escribí la fecha de nacimiento como en la cédula: DD/MM/AAAA.';
    for (const value of ['31/02/1990', '1990-13-01', 'ayer', '17 de mayo de 1990', '17/05/90']) {
      const res = await correct(id, 'DateOfBirth', value);
      expect(res.statusCode, value).toBe(400);
      expect(res.json().message, value).toBe(message);
    }
    expect((await correct(id, 'DateOfBirth', '7/5/1990')).statusCode).toBe(200);
    const detail = await detailOf(id);
    expect(detail.fields.DateOfBirth).toBe('1990-05-07');
    expect(detail.corrections.map((c) => c.to)).toEqual(['1990-05-07']);
  });

  it('sex, nationality and marital status come from their lists; the name is letters', async () => {
    const id = await claimedCase();
    const refused: Array<[string, string, string]> = [
      ['Gender', 'Q', 'Elegí el sexo de la lista.'],
      ['Gender', 'FEMENINO', 'Elegí el sexo de la lista.'],
      ['Nationality', 'MARCIANA', 'Elegí la nacionalidad de la lista.'],
      ['MaritalStatus', 'COMPLICADO', 'Elegí el estado civil de la lista.'],
      [
        'FullName',
        'JUAN 123',
        'Escribí el nombre completo como en la cédula: apellidos y nombres, solo letras.',
      ],
      [
        'FullName',
        'J',
        'Escribí el nombre completo como en la cédula: apellidos y nombres, solo letras.',
      ],
    ];
    for (const [field, value, message] of refused) {
      const res = await correct(id, field, value);
      expect(res.statusCode, `${field} ${value}`).toBe(400);
      expect(res.json().message, `${field} ${value}`).toBe(message);
    }
    for (const [field, value] of [
      ['Gender', 'M'],
      ['Nationality', 'ARGENTINA'],
      ['MaritalStatus', 'CASADA'],
      ['FullName', "GONZÁLEZ D'ALESSANDRO MARÍA-JOSÉ"],
    ] as const)
      expect((await correct(id, field, value)).statusCode, `${field} ${value}`).toBe(200);
    expect((await detailOf(id)).fields).toMatchObject({
      Gender: 'M',
      Nationality: 'ARGENTINA',
      MaritalStatus: 'CASADA',
      FullName: "GONZÁLEZ D'ALESSANDRO MARÍA-JOSÉ",
    });
  });

  it('a refused correction keeps nothing and records nothing; a missing reason still says so', async () => {
    const id = await claimedCase();
    expect((await correct(id, 'DocumentNumber', 'ABC')).statusCode).toBe(400);
    const noReason = await op.post('ana', `/casos/${id}/campos`, {
      field: 'DocumentNumber',
      value: '4567891',
      reason: '',
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe(
      'Revisá la corrección: indicá el campo, el valor nuevo y el motivo (al menos 3 letras).',
    );
    const unknown = await op.post('ana', `/casos/${id}/campos`, {
      field: 'Apodo',
      value: 'Juancito',
      reason: 'Así le dicen',
    });
    expect(unknown.statusCode).toBe(400);
    expect((await detailOf(id)).corrections).toEqual([]);
    expect((await auditRows(h.t.ctx)).filter((r) => r.action === 'correct')).toEqual([]);
  });
});

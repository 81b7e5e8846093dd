import { beforeEach, describe, expect, it } from 'vitest';
import { accessesResponse, myDataResponse } from '../../contract/my-data';
import { correctionsResponse, correctPaths } from '../../contract/my-data-correct';
import { caseDetailResponse, queueResponse } from '../../contract/operators';
import { upsertPatient } from '../../server/patients/service';
import { auditRows, keptCard, useCaseApps, type OperatorName } from './cases-fixtures';

/**
 * 'Corregir' in Mis datos (issue 45 item 5): a patient's request opens a 'correction' case that an
 * operator decides in the back office; the patient sees its state. PGlite, and PostgreSQL in the
 * PostgreSQL tier.
 */

const { h, op } = useCaseApps();
const ANA = {
  numero_documento: '4567890',
  pin: '739154',
  nombre: 'ANA MARÍA',
  apellido: 'RUIZ',
  celular: '0981555111',
};
const BETO = {
  numero_documento: '5678901',
  pin: '628143',
  nombre: 'BETO',
  apellido: 'SOSA',
  celular: '0981555222',
};

let ana: string;
let sidAna: string;
let sidBeto: string;

async function login(p: typeof ANA): Promise<string> {
  const res = await h.t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { numero_documento: p.numero_documento, pin: p.pin },
  });
  return res.cookies.find((c) => c.name === 'sid')!.value;
}
const ask = (sid: string | null, payload: object) =>
  h.t.app.inject({
    method: 'POST',
    url: correctPaths.requests,
    payload,
    cookies: sid ? { sid } : {},
  });
const list = async (sid: string) =>
  correctionsResponse.parse(
    (await h.t.app.inject({ method: 'GET', url: correctPaths.requests, cookies: { sid } })).json(),
  ).requests;
const myData = async (sid: string) =>
  myDataResponse.parse(
    (await h.t.app.inject({ method: 'GET', url: '/api/mis-datos', cookies: { sid } })).json(),
  );
const claim = async (name: OperatorName) =>
  (await op.post(name, '/casos/tomar')).json().caseId as string | null;
const detail = async (name: OperatorName, id: string) =>
  caseDetailResponse.parse((await op.get(name, `/casos/${id}`)).json()).case;
const approve = (name: OperatorName, id: string, digest: string) =>
  op.post(name, `/casos/${id}/decision`, { decision: 'approve', digest });
const field = async (column: string) =>
  (
    await h.t.ctx.db.query<Record<string, string | null>>(
      `SELECT ${column}::text AS v FROM patients WHERE id = $1`,
      [ana],
    )
  ).rows[0]!.v;

/** Ana's cédula kept on an earlier case of hers (a review decided, not purged yet). */
const anaCard = () => keptCard(h.t.ctx, ana, new Date(h.t.clock.now()));

beforeEach(async () => {
  ana = (await upsertPatient(h.t.ctx, ANA)).id;
  await upsertPatient(h.t.ctx, BETO);
  sidAna = await login(ANA);
  sidBeto = await login(BETO);
});

describe('the request (POST/GET /api/mis-datos/correcciones)', () => {
  it('needs a session, and refuses bad input with a Spanish 400, nothing opened', async () => {
    const body = { field: 'MaritalStatus', value: 'CASADA', reason: 'Me casé en 2024' };
    expect((await ask(null, body)).statusCode).toBe(401);
    const bad: Array<[object, RegExp]> = [
      [{ ...body, field: 'Celular' }, /Elegí cuál/],
      [{ ...body, value: 'FELIZ' }, /estado civil de la lista/],
      [{ field: 'DateOfBirth', value: '1990-13-45', reason: body.reason }, /DD\/MM\/AAAA/],
      [{ field: 'FullName', value: 'RUIZ ANA<script>', reason: body.reason }, /solo letras/],
      [{ ...body, reason: 'no' }, /por qué/],
      [{ ...body, reason: 'una\nlínea' }, /por qué/],
      [{ ...body, reason: 'x'.repeat(301) }, /por qué/],
      [{ field: 'DocumentNumber', value: '4567890', reason: body.reason }, /ya dice eso/],
    ];
    for (const [payload, message] of bad) {
      const res = await ask(sidAna, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect(await list(sidAna)).toEqual([]);
  });

  it('opens one case per field (a second: 409), logged; another patient sees none of it', async () => {
    const body = { field: 'MaritalStatus', value: 'CASADA', reason: 'Me casé en 2024' };
    const first = await ask(sidAna, body);
    expect(first.statusCode).toBe(200);
    expect(first.json().request).toMatchObject({ field: 'MaritalStatus', asked: 'CASADA' });
    const again = await ask(sidAna, { ...body, value: 'VIUDA' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/Ya pediste corregir este dato/);
    expect(await list(sidAna)).toMatchObject([{ field: 'MaritalStatus', state: 'pending' }]);
    expect(await list(sidBeto)).toEqual([]);
    const log = accessesResponse.parse(
      (
        await h.t.app.inject({
          method: 'GET',
          url: '/api/mis-datos/accesos',
          cookies: { sid: sidAna },
        })
      ).json(),
    ).accesses;
    expect(log.filter((a) => a.kind === 'correction')).toHaveLength(1);
  });

  it('two requests for one field at once: one case, the other a 409', async () => {
    const body = { field: 'Gender', value: 'X', reason: 'No es el que corresponde' };
    const answers = await Promise.all([ask(sidAna, body), ask(sidAna, body)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const { rows } = await h.t.ctx.db.query(`SELECT 1 FROM cases WHERE kind = 'correction'`);
    expect(rows).toHaveLength(1);
  });

  it('at most CASES_CORRECTIONS_PER_PATIENT_DAY (5) a day: the next is a 429 with Retry-After', async () => {
    const asks = [
      { field: 'MaritalStatus', value: 'CASADA' },
      { field: 'Gender', value: 'F' },
      { field: 'Nationality', value: 'PARAGUAYA' },
      { field: 'DateOfBirth', value: '01/02/1990' },
      { field: 'FullName', value: 'RUIZ ANA MARIA' },
    ];
    for (const a of asks)
      expect((await ask(sidAna, { ...a, reason: 'Está mal escrito' })).statusCode).toBe(200);
    const sixth = await ask(sidAna, {
      field: 'DocumentNumber',
      value: '4567891',
      reason: 'Está mal escrito',
    });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.headers['retry-after']).toBeDefined();
    expect(sixth.json().message).toMatch(/5 correcciones/);
  });
});

describe('the decision in the back office', () => {
  it('a reviser takes it from the queue and approves: the field changes once, "Corregido por una persona"', async () => {
    await ask(sidAna, { field: 'MaritalStatus', value: 'CASADA', reason: 'Me casé en 2024' });
    const queue = queueResponse.parse((await op.get('ana', '/casos')).json());
    expect(queue.cases).toMatchObject([{ kind: 'correction', trigger: 'patient_correction' }]);
    const id = (await claim('ana'))!;
    const d = await detail('ana', id);
    expect(d).toMatchObject({
      kind: 'correction',
      approvalRule: 'one',
      fields: { MaritalStatus: 'CASADA' },
      corrections: [{ field: 'MaritalStatus', from: '', to: 'CASADA', operator: 'paciente' }],
      patientClaim: { field: 'MaritalStatus', says: 'CASADA' },
    });
    // The same final approval twice at once: one writes, the other finds it decided.
    const answers = await Promise.all([approve('ana', id, d.digest), approve('ana', id, d.digest)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await field('estado_civil')).toBe('CASADA');
    const corrects = (await auditRows(h.t.ctx)).filter(
      (r) => r.case_id === id && r.action === 'correct',
    );
    expect(corrects).toEqual([expect.objectContaining({ detail: { field: 'MaritalStatus' } })]);
    const data = await myData(sidAna);
    expect(data.identity.find((f) => f.field === 'MaritalStatus')).toMatchObject({
      value: 'CASADA',
      source: 'person',
    });
    expect(data.identity.find((f) => f.field === 'Gender')?.source).toBe('engine');
    expect(await list(sidAna)).toMatchObject([{ state: 'approved', asked: 'CASADA' }]);
    // Beto's Mis datos names none of Ana's case (its looks are Ana's).
    const betoLog = accessesResponse.parse(
      (
        await h.t.app.inject({
          method: 'GET',
          url: '/api/mis-datos/accesos',
          cookies: { sid: sidBeto },
        })
      ).json(),
    ).accesses;
    expect(betoLog.some((a) => a.kind.startsWith('case_'))).toBe(false);
  });

  it('the name: two approvals with the card kept; a change after the first voids it; none without a card', async () => {
    await ask(sidAna, {
      field: 'FullName',
      value: 'RUIZ ANA MARIA',
      reason: 'Sin tilde en cédula',
    });
    let id = (await claim('ana'))!;
    expect((await detail('ana', id)).approvalRule).toBe('centre_only');
    const refused = await approve('ana', id, (await detail('ana', id)).digest);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/centro de salud/);
    await op.post('ana', `/casos/${id}/decision`, {
      decision: 'reject',
      reason: 'photos_unusable',
      note: 'Acercate con tu cédula',
    });
    expect(await list(sidAna)).toMatchObject([
      { state: 'rejected', rejectReason: 'photos_unusable', note: 'Acercate con tu cédula' },
    ]);

    await anaCard();
    h.t.clock.advance(1000);
    await ask(sidAna, {
      field: 'FullName',
      value: 'RUIZ ANA MARIA',
      reason: 'Sin tilde en cédula',
    });
    id = (await claim('ana'))!;
    const first = await detail('ana', id);
    expect(first).toMatchObject({ approvalRule: 'two', images: ['front', 'back'] });
    expect((await approve('ana', id, first.digest)).json().outcome).toBe('awaiting_supervisor');
    expect(await field('nombre')).toBe('ANA MARÍA');
    // A supervisor changes the asked value: the first approval is void; the old digest a 409.
    expect(await claim('sofia')).toBe(id);
    const fix = await op.post('sofia', `/casos/${id}/campos`, {
      field: 'FullName',
      value: 'RUIZ ANA MARÍA JOSÉ',
      reason: 'Así dice la cédula',
    });
    expect(fix.statusCode).toBe(200);
    const other = await op.post('sofia', `/casos/${id}/campos`, {
      field: 'Gender',
      value: 'M',
      reason: 'Así dice la cédula',
    });
    expect(other.statusCode).toBe(409);
    expect((await approve('sofia', id, first.digest)).json().reason).toBe('case_changed');
    const second = await detail('sofia', id);
    expect(second.approvals).toEqual([]);
    expect((await approve('sofia', id, second.digest)).json().outcome).toBe('awaiting_supervisor');
    expect(await claim('tomas')).toBe(id);
    expect((await approve('tomas', id, second.digest)).json().outcome).toBe('approved');
    expect([await field('apellido'), await field('nombre')]).toEqual(['RUIZ ANA', 'MARÍA JOSÉ']);
    // The patient's list says what they asked; Mis datos shows what was written.
    expect((await list(sidAna))[0]).toMatchObject({ state: 'approved', asked: 'RUIZ ANA MARIA' });
  });

  it('the patient changed meanwhile: the approval writes nothing (409)', async () => {
    await ask(sidAna, { field: 'Gender', value: 'F', reason: 'Soy mujer, dice otra cosa' });
    const id = (await claim('beto'))!;
    const d = await detail('beto', id);
    await h.t.ctx.db.query(`UPDATE patients SET sexo = 'M' WHERE id = $1`, [ana]);
    const res = await approve('beto', id, d.digest);
    expect(res.statusCode).toBe(409);
    expect(await field('sexo')).toBe('M');
  });
});

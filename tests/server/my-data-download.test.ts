import { randomUUID } from 'node:crypto';
import AdmZip from 'adm-zip';
import { beforeEach, describe, expect, it } from 'vitest';
import { downloadResponse, secondaryUseResponse } from '../../contract/my-data-download';
import { audit } from '../../server/cases/audit';
import { caseSealer } from '../../server/cases/seal';
import { upsertPatient } from '../../server/patients/service';
import { useTestApp, type TestApp } from './helpers';
import { ANA, BETO, loginAs } from './my-data-patients';

/** A JPEG's first bytes and a marker to find in the file. */
const SELFIE = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('selfie-ana')]);
const FRONT = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('front-beto')]);
const LINK_MS = 15 * 60_000;

describe('Mis datos: the download (issue 45 item 2)', () => {
  const h = useTestApp();
  let t: TestApp;
  let ana: string;
  let beto: string;
  beforeEach(async () => {
    t = h.t;
    ana = (await upsertPatient(t.ctx, ANA)).id;
    beto = (await upsertPatient(t.ctx, BETO)).id;
  });

  const login = async (p: typeof ANA) => (await loginAs(t, p))!;
  const ask = (sid?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/mis-datos/descarga',
      cookies: sid ? { sid } : {},
    });
  const fetchFile = (sid: string | undefined, token: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/mis-datos/descarga?t=${encodeURIComponent(token)}`,
      cookies: sid ? { sid } : {},
    });
  const ready = async (sid: string) => {
    const res = await ask(sid);
    expect(res.statusCode).toBe(200);
    const body = downloadResponse.parse(res.json());
    if (body.status !== 'ready') throw new Error('not ready');
    return body;
  };
  const logRows = async (kind: string) =>
    (
      await t.ctx.db.query<{ patient_id: string; result: string }>(
        'SELECT patient_id::text AS patient_id, result FROM patient_access_log WHERE kind = $1',
        [kind],
      )
    ).rows;

  /** A case of the patient's registration with a sealed image and the fields read. */
  async function caseWith(
    patientId: string,
    session: string,
    part: 'selfie' | 'front',
    bytes: Buffer,
    purged = false,
  ) {
    const id = randomUUID();
    const now = new Date(t.clock.now());
    const sealer = caseSealer(t.ctx);
    await t.ctx.db.query(
      'INSERT INTO onboarding_registrations (session_id, patient_id, created_at) VALUES ($1, $2, $3)',
      [session, patientId, now],
    );
    await t.ctx.db.query(
      `INSERT INTO cases (id, kind, status, trigger, step, kyc_session_id, opened_at, expected_by,
                          ${part}, fields, purge_after, purged_at, decided_at)
       VALUES ($1, 'review', 'approved', 'face_mismatch', 'selfie', $2, $3, $3, $4, $5, $6, $7, $3)`,
      [
        id,
        session,
        now,
        purged ? null : sealer.seal(id, part, bytes),
        purged ? null : sealer.sealJson(id, 'fields', { DocumentNumber: 'read-from-card' }),
        new Date(now.getTime() + 30 * 86_400_000),
        purged ? now : null,
      ],
    );
    return id;
  }

  it('answers 401 without a session, for the file and its link alike', async () => {
    expect((await ask()).statusCode).toBe(401);
    expect((await ask('forged')).statusCode).toBe(401);
    const sid = await login(ANA);
    const { token } = await ready(sid);
    const res = await fetchFile(undefined, token);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toMatch(/Ingresá/);
  });

  it("one zip with the patient's data, sessions, accesses, cases and kept images; no one else's", async () => {
    const caseId = await caseWith(ana, 'kyc-ana', 'selfie', SELFIE);
    await caseWith(beto, 'kyc-beto', 'front', FRONT);
    await caseWith(ana, 'kyc-ana-old', 'front', FRONT, true);
    await audit(t.ctx.db, {
      caseId,
      actor: { id: randomUUID(), usuario: 'revisora' },
      action: 'view',
      at: new Date(t.clock.now()),
    });
    await login(BETO);
    await login(ANA);
    const sid = await login(ANA);
    const body = await ready(sid);
    expect(body.fileName).toBe('mis-datos-2025-03-03.zip');
    const res = await fetchFile(sid, body.token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="mis-datos-2025-03-03.zip"',
    );
    expect(res.rawPayload.length).toBe(body.size);

    const zip = new AdmZip(res.rawPayload);
    const names = zip.getEntries().map((e) => e.entryName);
    expect(names.sort()).toEqual(['datos.json', 'imagenes/caso-1-selfie.jpg', 'resumen.html']);
    expect(zip.readFile('imagenes/caso-1-selfie.jpg')).toEqual(SELFIE);
    const data = JSON.parse(zip.readAsText('datos.json'));
    expect(data.data.identity).toContainEqual(
      expect.objectContaining({ field: 'DocumentNumber', value: '4567890' }),
    );
    expect(data.sessions).toHaveLength(2);
    expect(data.accesses.filter((a: { kind: string }) => a.kind === 'login')).toHaveLength(2);
    expect(data.cases).toHaveLength(2);
    expect(data.cases[0]).toMatchObject({
      status: 'approved',
      images: ['imagenes/caso-1-selfie.jpg'],
      fieldsRead: { DocumentNumber: 'read-from-card' },
      history: [{ action: 'view', role: null }],
    });
    // The purged case: its record, no image, no fields.
    expect(data.cases[1]).toMatchObject({ images: [], fieldsRead: null });
    expect(data.consents.secondaryUse).toEqual({ optedOut: false, changedAt: null });
    const html = zip.readAsText('resumen.html');
    expect(html).toContain('ANA RUIZ');
    expect(html).toContain('4567890');
    // In words for a person, never the codes: the approved case and its look.
    expect(html).toContain('<td>Aprobada</td>');
    expect(html).toContain('<td>Una persona lo miró</td>');
    expect(html).not.toMatch(/<td>(approved|view|review|patient_choice)<\/td>/);
    const everything = zip.readAsText('datos.json') + html;
    for (const other of ['BETO', '5678901', '0981555222', 'front-beto'])
      expect(everything).not.toContain(other);
    expect(zip.readAsText('imagenes/caso-1-selfie.jpg')).not.toContain('front-beto');
    expect(await logRows('download')).toEqual([{ patient_id: ana, result: 'ok' }]);
  });

  it('asked again within the window: the same link and file, not a rebuilt one', async () => {
    const sid = await login(ANA);
    const first = await ready(sid);
    const file = (await fetchFile(sid, first.token)).rawPayload;
    t.clock.advance(LINK_MS - 1000);
    const again = await ready(sid);
    expect(again).toEqual(first);
    expect((await fetchFile(sid, again.token)).rawPayload).toEqual(file);
    expect(await logRows('download')).toHaveLength(1);
  });

  it('a flood of requests at once costs one build', async () => {
    const sid = await login(ANA);
    const answers = await Promise.all(Array.from({ length: 12 }, () => ask(sid)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(12).fill(200));
    const bodies = answers.map((a) => downloadResponse.parse(a.json()));
    const tokens = new Set(bodies.flatMap((b) => (b.status === 'ready' ? [b.token] : [])));
    expect(tokens.size).toBe(1);
    expect(await logRows('download')).toHaveLength(1);
  });

  it('while another request builds: building, ask again; a build given up (a dead process) is claimed anew', async () => {
    const sid = await login(ANA);
    const now = t.clock.now();
    await t.ctx.db.query(
      `INSERT INTO my_data_downloads (patient_id, status, token_hash, requested_at, expires_at)
       VALUES ($1, 'building', 'another-build', $2, $3)`,
      [ana, new Date(now), new Date(now + 60_000)],
    );
    expect(downloadResponse.parse((await ask(sid)).json())).toEqual({
      success: true,
      status: 'building',
      retryAfterMs: 1000,
    });
    expect(await logRows('download')).toEqual([]);
    // The claim's build never finished within MY_DATA_DOWNLOAD_BUILD_SECONDS: claimed again.
    t.clock.advance(60_000);
    const body = await ready(sid);
    expect((await fetchFile(sid, body.token)).statusCode).toBe(200);
    expect(await logRows('download')).toHaveLength(1);
  });

  it("another patient's link is 404; a made-up or missing one too; an expired one 410, then 404", async () => {
    const sidAna = await login(ANA);
    const sidBeto = await login(BETO);
    const { token } = await ready(sidAna);
    const theirs = await fetchFile(sidBeto, token);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().message).toMatch(/No encontramos esa descarga/);
    expect((await fetchFile(sidAna, 'x'.repeat(43))).statusCode).toBe(404);
    expect((await fetchFile(sidAna, '../../etc')).statusCode).toBe(404);
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/mis-datos/descarga',
      cookies: { sid: sidAna },
    });
    expect(missing.statusCode).toBe(400);

    t.clock.advance(LINK_MS);
    // The session is still live (its idle timer was refreshed above, 15 min ago: log in again).
    const sid = await login(ANA);
    const expired = await fetchFile(sid, token);
    expect(expired.statusCode).toBe(410);
    expect(expired.json().message).toMatch(/venció/);
    expect((await fetchFile(sid, token)).statusCode).toBe(404);
    const { rows } = await t.ctx.db.query('SELECT 1 FROM my_data_downloads');
    expect(rows).toHaveLength(0);
    // Asked again after the window: a new file, a new link.
    const fresh = await ready(sid);
    expect(fresh.token).not.toBe(token);
    expect(await logRows('download')).toHaveLength(2);
  });

  it('the file and the token are sealed at rest: neither is readable in the table', async () => {
    const sid = await login(ANA);
    const { token } = await ready(sid);
    const { rows } = await t.ctx.db.query<{ token: Buffer; file: Buffer; token_hash: string }>(
      'SELECT token, file, token_hash FROM my_data_downloads',
    );
    const row = rows[0]!;
    expect(Buffer.from(row.token).toString('utf8')).not.toContain(token);
    expect(row.token_hash).not.toContain(token);
    expect(Buffer.from(row.file).subarray(0, 2).toString('latin1')).not.toBe('PK');
  });
});

describe('Mis datos: secondary uses (issue 45 item 7)', () => {
  const h = useTestApp();
  let t: TestApp;
  let ana: string;
  beforeEach(async () => {
    t = h.t;
    ana = (await upsertPatient(t.ctx, ANA)).id;
    await upsertPatient(t.ctx, BETO);
  });
  const login = async (p: typeof ANA) => (await loginAs(t, p))!;
  const get = (sid?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/mis-datos/usos-secundarios',
      cookies: sid ? { sid } : {},
    });
  const put = (sid: string | undefined, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/mis-datos/usos-secundarios',
      cookies: sid ? { sid } : {},
      payload: payload as object,
    });
  const changes = async () =>
    (
      await t.ctx.db.query<{ patient_id: string }>(
        "SELECT patient_id::text AS patient_id FROM patient_access_log WHERE kind = 'secondary_use'",
      )
    ).rows;

  it('not opted out by default; the choice is kept, logged once per change, the other patient untouched', async () => {
    expect((await get()).statusCode).toBe(401);
    expect((await put(undefined, { optedOut: true })).statusCode).toBe(401);
    const sid = await login(ANA);
    expect(secondaryUseResponse.parse((await get(sid)).json())).toEqual({
      success: true,
      optedOut: false,
      changedAt: null,
    });
    // Choosing what is already the case changes and logs nothing.
    await put(sid, { optedOut: false });
    expect(await changes()).toEqual([]);
    const set = await Promise.all([put(sid, { optedOut: true }), put(sid, { optedOut: true })]);
    expect(set.map((r) => r.json().optedOut)).toEqual([true, true]);
    expect(await changes()).toEqual([{ patient_id: ana }]);
    expect((await get(sid)).json()).toMatchObject({
      optedOut: true,
      changedAt: '2025-03-03T12:00:00.000Z',
    });
    expect((await get(await login(BETO))).json().optedOut).toBe(false);
    await put(sid, { optedOut: false });
    expect(await changes()).toHaveLength(2);
  });

  it('bad input is a 400 in Spanish, and changes nothing', async () => {
    const sid = await login(ANA);
    for (const body of [{}, { optedOut: 'yes' }, { optedOut: true, patientId: '2' }, []]) {
      const res = await put(sid, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/Elegí/);
    }
    expect((await get(sid)).json().optedOut).toBe(false);
  });

  it('secondary_use_allowed leaves out the patients who opted out', async () => {
    const sid = await login(ANA);
    const allowed = async () =>
      (
        await t.ctx.db.query<{ patient_id: string }>(
          'SELECT patient_id::text AS patient_id FROM secondary_use_allowed ORDER BY patient_id',
        )
      ).rows.map((r) => r.patient_id);
    expect(await allowed()).toHaveLength(2);
    await put(sid, { optedOut: true });
    expect(await allowed()).not.toContain(ana);
    expect(await allowed()).toHaveLength(1);
  });
});

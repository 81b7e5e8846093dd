import AdmZip from 'adm-zip';
import { describe, expect, it } from 'vitest';
import { downloadResponse } from '../../contract/my-data-download';
import { upsertPatient } from '../../server/patients/service';
import { keptCard } from './cases-fixtures';
import { useTestApp } from './helpers';
import { ANA, loginAs } from './my-data-patients';

/**
 * Issue 45 item 2: asked again within MY_DATA_DOWNLOAD_MINUTES, the download is the same file only
 * while the data it was built from is unchanged (server/my-data/download-digest.ts); a correction
 * applied, a case purged or the face withdrawn make a new file, and the old link stops working.
 */
const h = useTestApp();

describe('the download window serves no stale data (issue 45 item 2)', () => {
  it('the same file while nothing changed; a new one after a correction, a purge, the face withdrawn', async () => {
    const t = h.t;
    const ana = (await upsertPatient(t.ctx, ANA)).id;
    await keptCard(t.ctx, ana, new Date(t.clock.now()));
    await t.ctx.db.query(
      `INSERT INTO face_enrollments (patient_id, embedding, model)
       VALUES ($1, array_fill(0.1::real, ARRAY[4]), 'm')`,
      [ana],
    );
    const sid = (await loginAs(t, ANA))!;
    const ask = async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/mis-datos/descarga',
        cookies: { sid },
      });
      expect(res.statusCode).toBe(200);
      const body = downloadResponse.parse(res.json());
      if (body.status !== 'ready') throw new Error('not ready');
      return body.token;
    };
    const open = async (token: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/mis-datos/descarga?t=${encodeURIComponent(token)}`,
        cookies: { sid },
      });
      return res.statusCode === 200 ? new AdmZip(res.rawPayload) : res.statusCode;
    };
    const json = async (token: string) => {
      const zip = await open(token);
      if (typeof zip === 'number') throw new Error(`file: ${zip}`);
      return {
        data: JSON.parse(zip.readAsText('datos.json')),
        names: zip.getEntries().map((e) => e.entryName),
      };
    };
    const builds = async () =>
      (
        await t.ctx.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM patient_access_log WHERE kind = 'download'",
        )
      ).rows[0]!.n;

    const first = await ask();
    expect((await json(first)).names).toContain('imagenes/caso-1-front.jpg');
    // Nothing changed but the asking itself (a look at Mis datos, the session used, time): reused.
    await t.app.inject({ method: 'GET', url: '/api/mis-datos', cookies: { sid } });
    t.clock.advance(60_000);
    expect(await ask()).toBe(first);
    expect(await builds()).toBe(1);

    // A correction applied: a new file with the new value; the old link is gone.
    await t.ctx.db.query(`UPDATE patients SET sexo = 'F' WHERE id = $1`, [ana]);
    const corrected = await ask();
    expect(corrected).not.toBe(first);
    expect(await open(first)).toBe(404);
    const gender = (await json(corrected)).data.data.identity.find(
      (f: { field: string }) => f.field === 'Gender',
    );
    expect(gender.value).toBe('F');
    expect(await ask()).toBe(corrected);

    // The case purged: a new file without its images.
    await t.ctx.db.query(
      'UPDATE cases SET front = NULL, back = NULL, purged_at = $2 WHERE patient_id = $1',
      [ana, new Date(t.clock.now())],
    );
    const purged = await ask();
    expect(purged).not.toBe(corrected);
    expect((await json(purged)).names.filter((n) => n.startsWith('imagenes/'))).toEqual([]);

    // The face withdrawn (PIN, Mi rostro): a new file that says no face is enrolled.
    const withdrawn = await t.app.inject({
      method: 'POST',
      url: '/api/mis-datos/rostro/retirar',
      payload: { pin: ANA.pin },
      cookies: { sid },
    });
    expect(withdrawn.statusCode).toBe(200);
    const faceless = await ask();
    expect(faceless).not.toBe(purged);
    expect((await json(faceless)).data.consents.face.enrolled).toBe(false);
    expect(await builds()).toBe(4);
  });
});

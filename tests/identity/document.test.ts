import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrollFace, getCompletedKyc } from '../../server/identity/engine';
import { cameraFrame, cardIdData, cardManifest, fixture, phonePhoto } from './frames';
import { liveSession as liveSessionOf, startEngine, type Harness } from './engine';
import { nameReadRight } from '../fixtures/cedula';

const card = (name: string, side: string) => fixture('cedulas', `${name}-${side}.jpg`);
const T = 180_000;

let h: Harness;
beforeAll(async () => {
  h = await startEngine({}, { ocr: true });
});
afterAll(async () => {
  await h?.engine.close();
  await h?.db.close();
});

let liveSeed = 0;
const liveSession = () => liveSessionOf(h, liveSeed++ === 0 ? 42 : 100 + liveSeed);

describe('document scan', () => {
  it(
    'reads every field of a clean card whose photo matches the selfie, and stores the result',
    { timeout: T },
    async () => {
      const sid = await liveSession();
      const r = await h.engine.scanDocument(h.db, sid, {
        front: card('card-1', 'front'),
        back: card('card-1', 'back'),
      });
      expect(r).toEqual({
        success: true,
        kyc_complete: true,
        id_data: cardIdData('card-1', r.id_data),
      });
      const kyc = await getCompletedKyc(h.db, sid);
      expect(kyc?.idData).toEqual(r.id_data);
      expect(kyc?.embedding).toHaveLength(1024);
      // Registration consumes it once; a second registration finds nothing.
      const consume = () => h.db.transaction((tx) => getCompletedKyc(tx, sid, { consume: true }));
      expect((await consume())?.idData).toEqual(r.id_data);
      expect(await consume()).toBeNull();
      expect(await getCompletedKyc(h.db, sid)).toBeNull();
    },
  );

  it(
    "a name the card prints 'ÓSCAR' and the MRZ writes 'OSCAR' is given one way or the other, never otherwise",
    { timeout: T },
    async () => {
      const sid = await liveSession();
      const r = await h.engine.scanDocument(h.db, sid, {
        front: card('card-2', 'front'),
        back: card('card-2', 'back'),
      });
      // The front prints 'ACOSTA ACOSTA' / 'CARLOS ÓSCAR'; the MRZ 'ACOSTA<ACOSTA<<CARLOS<OSCAR'.
      // Whether the OCR sees the accent depends on the picture (this scan, cropped to the card and
      // read whole since issue 28, is read 'OSCAR'; document-photos.test.ts reads 'ÓSCAR' on a
      // photographed card-2 and requires it): either spelling is right, no other.
      const { expected, printedName } = cardManifest['card-2']!;
      expect(printedName).toBe('ACOSTA ACOSTA CARLOS ÓSCAR');
      expect(r).toMatchObject({ success: true, kyc_complete: true });
      expect({ ...r.id_data, FullName: '' }).toEqual({ ...expected, FullName: '' });
      expect(nameReadRight(r.id_data?.FullName, printedName)).toBe(true);
      // What registration reads (and splits into apellido 'ACOSTA ACOSTA', nombre 'CARLOS ÓSCAR').
      expect((await getCompletedKyc(h.db, sid))?.idData).toEqual(r.id_data);
    },
  );

  it('reads a rotated, noisy, compressed back', { timeout: T }, async () => {
    const r = await h.engine.readDocument(
      card('card-1', 'front'),
      fixture('cedulas', 'card-1-back-degraded.jpg'),
    );
    expect(r.ok).toBe(true);
    expect(r.idData).toEqual(cardIdData('card-1', r.idData));
    expect(r.checks).toMatchObject({
      mrzCheckDigits: true,
      issuingStatePry: true,
      namesMatchFront: true,
      maritalStatusRead: true,
    });
  });

  it(
    'a card with someone else\'s photo fails with "Face verification failed"',
    { timeout: T },
    async () => {
      const sid = await liveSession();
      const r = await h.engine.scanDocument(h.db, sid, {
        front: card('card-3', 'front'),
        back: card('card-3', 'back'),
      });
      expect(r.success).toBe(false);
      expect(r.kyc_complete).toBe(false);
      expect(r.error).toContain('Face verification failed');
      expect(await getCompletedKyc(h.db, sid)).toBeNull();
    },
  );

  it('names on the back that disagree with the front are refused', { timeout: T }, async () => {
    const r = await h.engine.readDocument(card('card-1', 'front'), card('card-2', 'back'));
    expect(r.ok).toBe(false);
    expect(r.checks.mrzCheckDigits).toBe(true);
    expect(r.checks.namesMatchFront).toBe(false);
  });

  it('a back with no MRZ is unreadable, after the whole cascade', { timeout: T }, async () => {
    const r = await h.engine.readDocument(card('card-1', 'front'), card('card-1', 'front'));
    expect(r.ok).toBe(false);
    expect(r.checks.mrzCheckDigits).toBe(false);
    expect(r.passes).toBeGreaterThan(3);
  });

  it(
    'refuses a document before liveness, and sessions that are unknown or expired',
    { timeout: T },
    async () => {
      const { sessionId } = await h.engine.startSession(h.db);
      await expect(
        h.engine.scanDocument(h.db, sessionId, { front: card('card-1', 'front') }),
      ).rejects.toMatchObject({ code: 'liveness_missing' });
      await expect(
        h.engine.scanDocument(h.db, '11111111-1111-4111-8111-111111111111', {
          front: card('card-1', 'front'),
        }),
      ).rejects.toThrow(/invalid session/);
      await h.db.query(
        "UPDATE kyc_sessions SET expires_at = now() - interval '1 minute' WHERE id = $1",
        [sessionId],
      );
      await expect(
        h.engine.scanDocument(h.db, sessionId, { front: card('card-1', 'front') }),
      ).rejects.toThrow(/session expired/);
    },
  );

  it('a rejected session cannot complete', { timeout: T }, async () => {
    const sid = await liveSession();
    await h.engine.rejectKyc(h.db, sid, 'Usuario no conforme o datos incorrectos.');
    await expect(
      h.engine.scanDocument(h.db, sid, {
        front: card('card-1', 'front'),
        back: card('card-1', 'back'),
      }),
    ).rejects.toMatchObject({ code: 'session_closed' });
  });
});

describe('face match and 1:N identification', () => {
  it('compare: same face above the threshold, different people below', { timeout: T }, async () => {
    const same = await h.engine.compare(
      fixture('faces', 'blink-open.jpg'),
      card('card-1', 'front'),
    );
    expect(same.match).toBe(true);
    const diff = await h.engine.compare(
      fixture('faces', 'person-01.jpg'),
      fixture('faces', 'person-02.jpg'),
    );
    expect(diff.match).toBe(false);
    expect(diff.similarity!).toBeLessThan(same.similarity!);
  });

  it(
    'identifies an enrolled patient among others, and no one when not enrolled',
    { timeout: T },
    async () => {
      const ids: string[] = [];
      for (const [i, name] of [
        'blink-open.jpg',
        'person-03.jpg',
        'person-07.jpg',
        'person-11.jpg',
      ].entries()) {
        const { rows } = await h.db.query<{ id: string }>(
          "INSERT INTO patients (numero_documento, nombre, apellido, pin_hash) VALUES ($1, 'N', 'A', 'x') RETURNING id::text AS id",
          [String(900000 + i)],
        );
        const a = await h.engine.analyze(fixture('faces', name));
        await enrollFace(h.db, rows[0]!.id, a.faces[0]!.embedding!);
        ids.push(rows[0]!.id);
      }
      const probe = await cameraFrame('blink-open.jpg', { seed: 4242 });
      const r = await h.engine.identify(h.db, probe);
      expect(r.match?.patientId).toBe(ids[0]);
      expect(r.match!.similarity).toBeGreaterThanOrEqual(r.threshold);
      const stranger = await h.engine.identify(h.db, fixture('faces', 'person-15.jpg'));
      expect(stranger.match).toBeNull();
      expect(stranger.best!.similarity).toBeLessThan(stranger.threshold);
    },
  );
});

/**
 * The browser scales a document photo to at most 2000 px on its long side as JPEG 0.92 before upload
 * (issue 7; a phone photo is 4-8 MB): the engine must still read the MRZ and the front at that size.
 * The fixtures are made into 12 MP phone photos first (the card about 70% of the frame's width on a
 * table, slightly rotated, sensor noise, the phone's JPEG), then scaled exactly as the browser does.
 * Two full reads (front text and MRZ cascade) per case: a generous timeout for a loaded machine.
 */
const SCALED_T = 300_000;

/** What the browser uploads: the long side at most 2000 px, JPEG 0.92. */
const browserScaled = (photo: Buffer) =>
  sharp(photo)
    .resize({ width: 2000, height: 2000, fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 92 })
    .toBuffer();

describe('documents scaled by the browser to 2000 px, JPEG 0.92', () => {
  for (const [name, angle] of [
    ['card-1', 2],
    ['card-3', -3],
  ] as const) {
    it(
      `${name}: MRZ, names and fields read from the scaled phone photo`,
      { timeout: SCALED_T },
      async () => {
        const [front, back] = (await Promise.all(
          (['front', 'back'] as const).map(async (side, i) =>
            browserScaled(
              await phonePhoto(fixture('cedulas', `${name}-${side}.jpg`), 10 + i, angle),
            ),
          ),
        )) as [Buffer, Buffer];
        for (const img of [front, back]) {
          const meta = await sharp(img).metadata();
          expect(Math.max(meta.width!, meta.height!)).toBe(2000);
          // The picture is the card on the table: the table's colour in a corner, the card's
          // light background inside it (the card about 1400 px wide, not the whole frame).
          const mean = async (left: number, top: number) => {
            const px = await sharp(img)
              .extract({ left, top, width: 60, height: 60 })
              .greyscale()
              .raw()
              .toBuffer();
            return px.reduce((a, v) => a + v, 0) / px.length;
          };
          expect(Math.abs((await mean(10, 10)) - 94)).toBeLessThan(15);
          expect(await mean(1500, 1050)).toBeGreaterThan(150);
        }
        const r = await h.engine.readDocument(front, back);
        expect(r.ok).toBe(true);
        expect(r.idData).toEqual(cardIdData(name, r.idData));
        expect(r.checks).toMatchObject({ mrzCheckDigits: true, issuingStatePry: true });
      },
    );
  }
});

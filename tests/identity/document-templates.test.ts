/**
 * Issue 28: every genuine cédula reads, whatever its layout. One card of each template
 * (tests/fixtures/cedula-templates.ts: the portrait left or right, the number under the photo, in the
 * field column, at the top without a label, labels spelled otherwise, a foreign resident's card)
 * scanned by the engine, clean and photographed; the selfie's face pasted on each is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCompletedKyc } from '../../server/identity/engine';
import { identityMessages } from '../../server/identity/errors';
import { photographCard, type Capture } from '../fixtures/capture';
import { expectedIdData, nameReadRight, printedFullName } from '../fixtures/cedula';
import { TEMPLATES } from '../fixtures/cedula-templates';
import { templateCard } from '../fixtures/template-captures';
import { liveSessionWithSelfie, startEngine, type Harness } from './engine';
import { fixture } from './frames';

const T = 240_000;
let h: Harness;
let selfie: number[];
beforeAll(async () => {
  h = await startEngine({}, { ocr: true });
  selfie = (await h.engine.analyze(fixture('faces', 'blink-open.jpg'))).faces[0]!.embedding!;
}, T);
afterAll(async () => {
  await h?.engine.close();
  await h?.db.close();
});

type Expected = Record<string, string>;
const manifest = JSON.parse(fixture('cedulas', 'templates', 'manifest.json').toString()) as Record<
  string,
  { expected: Expected; printedName: string; heldOut: boolean }
>;
const card = (name: string) => fixture('cedulas', 'templates', `${name}.jpg`);

async function scan(front: Buffer, back: Buffer) {
  const sid = await liveSessionWithSelfie(h, selfie);
  const r = await h.engine.scanDocument(h.db, sid, { front, back });
  if (!r.success) expect(await getCompletedKyc(h.db, sid)).toBeNull();
  return r;
}

function expectRead(name: string, got: Record<string, string> | undefined) {
  const { expected, printedName } = manifest[name]!;
  expect({ ...got, FullName: '' }).toEqual({ ...expected, FullName: '' });
  expect(nameReadRight(got?.FullName, printedName)).toBe(true);
}

describe('cards of every layout', () => {
  it('the family has at least five layouts, three held out, one of a foreign resident', () => {
    expect(Object.keys(TEMPLATES).length).toBeGreaterThanOrEqual(5);
    expect(Object.values(manifest).filter((m) => m.heldOut)).toHaveLength(3);
    expect(manifest.extranjero!.expected.Nationality).toBe('ARGENTINA');
  });

  for (const name of Object.keys(TEMPLATES))
    it(
      `${name}: the genuine card reads; the selfie pasted on another's card is refused`,
      {
        timeout: T,
      },
      async () => {
        const r = await scan(card(`${name}-front`), card(`${name}-back`));
        expect(r).toMatchObject({ success: true, kyc_complete: true });
        expectRead(name, r.id_data);
        const pasted = await scan(card(`${name}-front-pasted`), card(`${name}-back`));
        expect(pasted).toEqual({
          success: false,
          kyc_complete: false,
          error: identityMessages.faceMismatch,
          reason: 'face_mismatch',
        });
      },
    );

  it(
    'held-out layouts photographed on a table read too; a card with its portrait cut off is the front again',
    { timeout: T },
    async () => {
      const onTable: Capture = {
        rotate: 4,
        tilt: 6,
        tiltSide: 'top',
        fill: 0.75,
        blur: 0.6,
        quality: 70,
      };
      for (const [i, name] of ['policarbonato', 'extranjero', 'antigua'].entries()) {
        const r = await scan(
          await photographCard(card(`${name}-front`), onTable, 10 + i),
          await photographCard(card(`${name}-back`), { ...onTable, rotate: -3 }, 20 + i),
        );
        expect(r, name).toMatchObject({ success: true });
        expectRead(name, r.id_data);
      }
      // The portrait covered (a thumb, a reflection): not 'no coinciden', the front is retaken.
      const sharp = (await import('sharp')).default;
      const t = TEMPLATES.clasica!;
      const scale = 760 / 1012;
      const thumb = await sharp({
        create: {
          width: Math.round((t.portrait.width + 40) * scale),
          height: Math.round((t.portrait.height + 40) * scale),
          channels: 3,
          background: '#d9b99b',
        },
      })
        .jpeg()
        .toBuffer();
      const covered = await sharp(card('clasica-front'))
        .composite([
          {
            input: thumb,
            left: Math.round((t.portrait.left - 20) * scale),
            top: Math.round((t.portrait.top - 20) * scale),
          },
        ])
        .jpeg({ quality: 85 })
        .toBuffer();
      expect(await scan(covered, card('clasica-back'))).toEqual({
        success: false,
        kyc_complete: false,
        error: identityMessages.noFaceOnDocument,
        reason: 'no_face_on_document',
      });
      expect(identityMessages.noFaceOnDocument).not.toMatch(/Face verification failed/);
    },
  );
});

describe('photographed cards of the tuned layouts that did not read before (issue 28)', () => {
  // bench/document-captures.ts 8, 2026-11-26: these photographed backs were 'mrz_unreadable'. The
  // MRZ of clasica #1 was read with a character before each line (the edge of the MRZ's white panel)
  // and taken as the line's first; numeroBajoFoto #1's and fotoDerecha #5's cards were not found on
  // the table (its grain joined into a region the size of the photo was taken for the card), so the
  // back showed too few text lines to be read at all.
  for (const [name, i] of [
    ['clasica', 1],
    ['numeroBajoFoto', 1],
    ['fotoDerecha', 5],
  ] as const)
    it(`${name} #${i}, both sides photographed on a table, reads`, { timeout: T }, async () => {
      const card = await templateCard(name, i, fixture('faces', 'blink-open.jpg'));
      const { front, back } = await card.photographed();
      const r = await scan(front, back);
      expect(r).toMatchObject({ success: true, kyc_complete: true });
      const want = expectedIdData(card.person);
      expect({ ...r.id_data, FullName: '' }).toEqual({ ...want, FullName: '' });
      expect(nameReadRight(r.id_data?.FullName, printedFullName(card.person))).toBe(true);
    });
});

describe('a tuned card photographed turned 4 degrees is never another card (issue 43 item 12)', () => {
  // bench/document-captures.ts on clasica with --seed 4: person 0, front turned -4.5 degrees, back
  // -4.7. The first MRZ pass read 'MARIA' as 'IVIARIA' (32 characters with its fillers); the names
  // line read from its end lost 'RO' of 'ROJAS' and the genuine front was 'another card'.
  it('clasica --seed 4 #0, both sides photographed', { timeout: T }, async () => {
    const card = await templateCard('clasica', 0, fixture('faces', 'blink-open.jpg'), 4);
    expect(card.capture.front.rotate).toBe(-4.5);
    const { front, back } = await card.photographed();
    const r = await scan(front, back);
    expect(r.reason).not.toBe('document_mismatch');
    expect(r.error).not.toBe(identityMessages.documentMismatch);
  });
});

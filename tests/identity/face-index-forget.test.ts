import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../server/db/client';
import { loadFaceIndexConfig, type FaceIndexConfig } from '../../server/identity/config';
import { loadDuplicateSearchConfig } from '../../server/identity/config-duplicates';
import { latestFlat, openFlat, readFlatIds } from '../../server/identity/face-flat';
import { createFlatSearch } from '../../server/identity/face-flat-search';
import { latestFile, openFile } from '../../server/identity/face-index';
import { createFaceIndex, type FaceIndex } from '../../server/identity/face-index-sync';
import { silentLog } from '../../server/identity/log';
import { enrollFace, faceIndexDatabaseId, removeFace } from '../../server/identity/store';
import { openTestDb } from '../server/helpers';

/**
 * 'Mi rostro' (issue 45 item 4): a withdrawn face is ignored by the index at once (face-index.test.ts)
 * and its vector leaves the index file too, rebuilt within IDENTITY_FACE_INDEX_FORGET_SECONDS; the
 * duplicate search's flat file, which holds the same vectors, is deleted then and made again
 * without it by its next search.
 */
let db: Db;
let dir: string;
let index: FaceIndex | null = null;
const ids: string[] = [];

const vector = (seed: number) => {
  const v = Array.from({ length: 1024 }, (_, j) => Math.sin(seed * 12.9898 + j * 78.233));
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'face-index-forget-'));
  db = await openTestDb();
  for (let i = 0; i < 40; i++) {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO patients (numero_documento, nombre, apellido, pin_hash)
       VALUES ($1, 'P', 'Q', 'x') RETURNING id::text AS id`,
      [String(7_100_000 + i)],
    );
    await enrollFace(db, rows[0]!.id, vector(i + 1));
    ids.push(rows[0]!.id);
  }
}, 60_000);
afterAll(async () => {
  index?.close();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

it('a withdrawn face leaves the index file within the setting', async () => {
  const cfg: FaceIndexConfig = {
    ...loadFaceIndexConfig({}),
    dir,
    minRows: 0,
    connectivity: 16,
    efAdd: 64,
    efSearch: 64,
    pollMs: 50,
    forgetMs: 400,
  };
  expect(loadFaceIndexConfig({}).forgetMs).toBe(3_600_000);
  index = createFaceIndex({ config: cfg, log: silentLog });
  await index.sync(db);
  const databaseId = await faceIndexDatabaseId(db);
  const fileHolds = (id: string) => {
    const found = latestFile(dir, databaseId, cfg);
    if (!found) throw new Error('no index file');
    const file = openFile(found, cfg);
    return file.index.contains(BigInt(id));
  };
  const withdrawn = ids[7]!;
  expect(fileHolds(withdrawn)).toBe(true);
  const flat = createFlatSearch({
    config: { ...loadDuplicateSearchConfig({}), dir, minRows: 0 },
    log: silentLog,
  });
  const flatHolds = (id: string) => {
    const found = latestFlat(dir, databaseId);
    return found ? readFlatIds(openFlat(found)).includes(BigInt(id)) : null;
  };
  await flat.search(db, Float32Array.from(vector(99)));
  expect(flatHolds(withdrawn)).toBe(true);

  const t0 = performance.now();
  expect(await removeFace(db, withdrawn)).toBe(true);
  // The polls: the deletion is seen, then the file is rebuilt and the process moves to it.
  await new Promise<void>((resolve) => {
    const off = index!.onSync((s) => {
      if (!s.full || !s.file || fileHolds(withdrawn)) return;
      off();
      resolve();
    });
  });
  const took = performance.now() - t0;
  expect(took).toBeGreaterThanOrEqual(cfg.forgetMs);
  expect(took).toBeLessThan(cfg.forgetMs + 5_000);
  expect(fileHolds(ids[8]!)).toBe(true);
  expect(index.size).toBe(39);
  // One file: the old one, which held the face, is deleted.
  expect(readdirSync(dir).filter((f) => f.endsWith('.usearch'))).toHaveLength(1);
  // The flat file that held it is gone; the next duplicate search makes one without it.
  expect(flatHolds(withdrawn)).toBeNull();
  const after = await flat.search(db, Float32Array.from(vector(8)));
  expect(after.candidates.map((c) => c.patientId)).not.toContain(withdrawn);
  expect(flatHolds(withdrawn)).toBe(false);
  expect(flatHolds(ids[8]!)).toBe(true);
  await flat.close();
});

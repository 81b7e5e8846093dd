import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { syntheticGallery } from '../../bench/gallery-scale';
import { syntheticRows } from '../../bench/gallery-scale-kept';
import { loadFaceIndexConfig } from '../../server/identity/config';
import {
  buildFile,
  FACE_DIM,
  openFile,
  searchFile,
  SERVER_BATCH,
  type BuildOptions,
} from '../../server/identity/face-index';

/**
 * buildFile's batch (issue 44, docs/measurements.md 'Face index at 1,000,000'): every row lands in
 * the file whatever the batch, the event loop gets a turn after every batch (the server's rebuild
 * runs beside its requests), and the 1M bench's page-by-page faces equal the bench's gallery.
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const cfg = { ...loadFaceIndexConfig({}), connectivity: 16, efAdd: 64, efSearch: 64 };
const g = syntheticGallery(300);

/** Builds g in one page; counts the event loop's turns taken while it builds. */
async function build(opts?: BuildOptions) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'face-index-build-'));
  dirs.push(dir);
  let done = false;
  let turns = 0;
  const ticking = (async () => {
    while (!done) {
      await new Promise((r) => setImmediate(r));
      turns++;
    }
  })();
  let given = false;
  const next = () => {
    if (given) return Promise.resolve(null);
    given = true;
    return Promise.resolve({ ids: g.ids, unit: g.unit });
  };
  const built = await buildFile(dir, '00000000-0000-0000-0000-0000000000b4', '1', cfg, next, opts);
  done = true;
  await ticking;
  return { file: openFile(built, cfg), turns };
}

describe('face index build', () => {
  it('holds every row and yields after every batch, at the server batch and any other', async () => {
    expect(SERVER_BATCH).toBe(64);
    for (const [opts, batches] of [
      [undefined, Math.ceil(300 / 64)],
      [{ batch: 7 }, Math.ceil(300 / 7)],
      [{ batch: 1000, threads: 2 }, 1],
    ] as const) {
      const { file, turns } = await build(opts);
      expect(file.size).toBe(300);
      expect(turns).toBeGreaterThanOrEqual(batches);
      expect(turns).toBeLessThanOrEqual(batches + 2);
      for (const i of [0, 99, 100, 299]) {
        const top = searchFile(file, g.unit.subarray(i * FACE_DIM, (i + 1) * FACE_DIM), 1);
        expect(top[0]!.patientId).toBe(g.ids[i]);
      }
    }
  });

  it('refuses a batch that is not a positive whole number', async () => {
    await expect(build({ batch: 0 })).rejects.toThrow(/batch/);
    await expect(build({ batch: 1.5 })).rejects.toThrow(/batch/);
  });

  it("makes the bench's faces page by page exactly as the whole gallery", () => {
    const rows = syntheticRows();
    const out = new Float32Array(FACE_DIM);
    for (let i = 0; i < 300; i++) {
      expect(rows.next(out)).toBe(g.person[i]);
      expect(out).toEqual(g.unit.subarray(i * FACE_DIM, (i + 1) * FACE_DIM));
    }
  });
});

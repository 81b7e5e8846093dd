/**
 * What mapping a face index file costs a process's private memory (issue 44: the resident memory at
 * 1M asked to stay within 50 MB of the same process at 10,000): RssAnon (private) and RssFile (the
 * mapped file's pages) from /proc/self/status before the file is opened, after usearch's `view` of
 * it, and after 20 searches; the `view` time. A file kept by bench/gallery-scale-kept.ts; its
 * settings from the environment (IDENTITY_FACE_INDEX_*; the kept 1M file was built with M 32:
 * IDENTITY_FACE_INDEX_CONNECTIVITY=32). Figures, not a test.
 *   npx tsx bench/face-index-view-memory.ts DIR
 */
import { readFileSync } from 'node:fs';
import { loadFaceIndexConfig } from '../server/identity/config';
import { FACE_DIM, latestFile, openFile, searchFile } from '../server/identity/face-index';
import { runIfMain } from './_identity';

const DB = '00000000-0000-0000-0000-000000000044';

function memory(): string {
  const status = readFileSync('/proc/self/status', 'utf8');
  const mb = (k: string) =>
    (Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1]) / 1024).toFixed(1);
  return `RssAnon ${mb('RssAnon')} MB, RssFile ${mb('RssFile')} MB`;
}

export async function main() {
  const dir = process.argv[2];
  const cfg = loadFaceIndexConfig(process.env);
  const found = dir ? latestFile(dir, DB, cfg) : null;
  if (!found) throw new Error('usage: DIR (a folder kept by gallery-scale-kept.ts build)');
  console.log(`${found.path}\n  before view: ${memory()}`);
  const t0 = performance.now();
  const f = openFile(found, cfg);
  console.log(`  after view (${(performance.now() - t0).toFixed(0)} ms): ${memory()}`);
  const probe = new Float32Array(FACE_DIM).fill(1 / Math.sqrt(FACE_DIM));
  for (let i = 0; i < 20; i++) searchFile(f, probe, cfg.candidates);
  console.log(`  after 20 searches: ${memory()}`);
}

runIfMain(import.meta.url, main);

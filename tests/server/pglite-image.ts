/**
 * The server tests' PGlite: one migrated, empty database image per set of migrations, kept in the
 * system's temporary folder and shared by every test file and worker, so that each file opens its
 * database from the image (about 1.5 s) instead of running initdb and every migration (about 7 s,
 * both measured at load 13). The file's name is the digest of the migrations and PGlite's version:
 * a changed migration makes a new image, never a stale one, and the old one is removed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pgliteImage } from '../../server/db/client';

const migrationsDir = fileURLToPath(new URL('../../server/db/migrations/', import.meta.url));
const pgliteVersion = (
  JSON.parse(
    readFileSync(
      fileURLToPath(
        new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url),
      ),
      'utf8',
    ),
  ) as { version: string }
).version;

function imagePath(): string {
  const hash = createHash('sha256').update(pgliteVersion);
  for (const name of readdirSync(migrationsDir).sort())
    hash.update(name).update(readFileSync(path.join(migrationsDir, name)));
  return path.join(tmpdir(), `pglite-migrated-${hash.digest('hex').slice(0, 16)}.tar`);
}

let image: Promise<Blob> | undefined;

/** The migrated image: read from its file, or made and written there (atomically) once. */
export function migratedPgliteImage(): Promise<Blob> {
  image ??= (async () => {
    const file = imagePath();
    try {
      return new Blob([await readFile(file)]);
    } catch {
      const made = await pgliteImage();
      const partial = `${file}.${randomBytes(4).toString('hex')}`;
      await writeFile(partial, Buffer.from(await made.arrayBuffer()));
      await rename(partial, file);
      // Images of other migrations (an older checkout's) go: 40 MB each.
      for (const name of await readdir(tmpdir()))
        if (/^pglite-migrated-[0-9a-f]{16}\.tar$/.test(name) && name !== path.basename(file))
          await rm(path.join(tmpdir(), name), { force: true });
      return made;
    }
  })();
  return image;
}

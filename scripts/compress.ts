/**
 * Precompresses the built app (dist/) once, at build time, at the strongest settings: every text
 * file gets a `.br` (brotli, quality 11) and a `.gz` (gzip -9) next to it, which the server sends as
 * they are to clients that accept them (@fastify/static `preCompressed`, server/http/static.ts).
 * A variant that would not be smaller is not written.
 *
 *   npx tsx scripts/compress.ts [dir]
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue; // .vite/ (the manifest) is not served
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

export type Compressed = { file: string; raw: number; br: number | null; gz: number | null };

export function compressDir(dir: string): Compressed[] {
  const out: Compressed[] = [];
  for (const file of files(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const raw = readFileSync(file);
    const br = brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    });
    const gz = gzipSync(raw, { level: 9 });
    const write = (ext: string, data: Buffer) => {
      rmSync(file + ext, { force: true });
      if (data.length >= raw.length) return null;
      writeFileSync(file + ext, data);
      return data.length;
    };
    out.push({
      file: path.relative(dir, file),
      raw: raw.length,
      br: write('.br', br),
      gz: write('.gz', gz),
    });
  }
  return out;
}

export function main(dir = process.argv[2] ?? 'dist'): void {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const target = path.resolve(root, dir);
  if (!statSync(target).isDirectory()) throw new Error(`${target} is not a directory`);
  const done = compressDir(target);
  const sum = (pick: (c: Compressed) => number) => done.reduce((n, c) => n + pick(c), 0);
  const kB = (n: number) => (n / 1000).toFixed(1);
  console.log(
    `compress: ${done.length} files, ${kB(sum((c) => c.raw))} kB -> brotli ${kB(sum((c) => c.br ?? c.raw))} kB, gzip ${kB(sum((c) => c.gz ?? c.raw))} kB`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main();
}

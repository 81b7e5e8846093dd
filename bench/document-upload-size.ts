/**
 * What a patient uploads for each side of the cédula (issue 7 budget: at most 700 KB each after
 * scaling), measured with the browser's own code in Chromium: machines/shared/frame-capture.ts
 * `scaleImage` (at most 2000 px on the long side, JPEG 0.92, canvas.toBlob), bundled as is with
 * esbuild into a blank page. The inputs are 12 MP phone photos of the fixture cards (4032x3024, the
 * card about 70% of the width, turned a little, sensor noise, the phone's JPEG at 90; the same maker
 * as the engine's 2000 px MRZ test), so the sizes are those of a photo taken on a table, not of the
 * small clean fixture files. Figures, not a test.
 *   npx tsx bench/document-upload-size.ts
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { build } from 'esbuild';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium';
import { fixture, phonePhoto } from '../tests/identity/frames';
import { runIfMain } from './_identity';

const TARGET_KB = 700;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** frame-capture.ts's scaleImage as a page script: `window.scaleImage(blob)`. */
async function scalerScript(): Promise<string> {
  const out = await build({
    stdin: {
      contents: `import { scaleImage } from './machines/shared/frame-capture';\nwindow.scaleImage = scaleImage;`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    write: false,
    platform: 'browser',
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

export async function main() {
  const script = await scalerScript();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const rows: Array<Record<string, unknown>> = [];
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><title>scale</title>');
    await page.addScriptTag({ content: script });
    for (const [name, angle] of [
      ['card-1', 2],
      ['card-2', -1],
      ['card-3', -3],
    ] as const) {
      for (const [i, side] of (['front', 'back'] as const).entries()) {
        const photo = await phonePhoto(fixture('cedulas', `${name}-${side}.jpg`), 10 + i, angle);
        const scaled = await page.evaluate(async (base64) => {
          const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
          const scale = (window as unknown as { scaleImage: (b: Blob) => Promise<Blob> })
            .scaleImage;
          const blob = await scale(new Blob([bytes], { type: 'image/jpeg' }));
          const bitmap = await createImageBitmap(blob);
          const size = { bytes: blob.size, width: bitmap.width, height: bitmap.height };
          bitmap.close();
          return size;
        }, photo.toString('base64'));
        rows.push({
          card: `${name}-${side}`,
          photoKB: Math.round(photo.length / 1024),
          uploadKB: Math.round(scaled.bytes / 1024),
          size: `${scaled.width}x${scaled.height}`,
          withinTarget: scaled.bytes <= TARGET_KB * 1024,
        });
        console.log(JSON.stringify(rows.at(-1)));
      }
    }
  } finally {
    await browser.close();
  }
  const sizes = rows.map((r) => r.uploadKB as number).sort((a, b) => a - b);
  console.log(
    `document upload after the browser's scaling (2000 px, JPEG 0.92): median ${sizes[Math.floor(sizes.length / 2)]} KB, max ${sizes.at(-1)} KB of 12 MP photos of ${Math.min(...rows.map((r) => r.photoKB as number))}-${Math.max(...rows.map((r) => r.photoKB as number))} KB (target <= ${TARGET_KB} KB each)`,
  );
  return rows;
}

runIfMain(import.meta.url, main);

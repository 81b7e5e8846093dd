import { readdirSync, readFileSync } from 'node:fs';
import sharp from 'sharp';
import { loadIdentityConfig } from '../server/identity/config';
import { createIdentityEngine } from '../server/identity/engine';
import { checkGates } from '../server/identity/gates';
const W = 160, H = 180;
const OVAL = { left: Math.round((640 - (480 * 320) / 360) / 2), top: 0, width: 427, height: 480 };
async function main() {
  const engine = await createIdentityEngine(loadIdentityConfig({ IDENTITY_POOL_SIZE: '1' }), { ocr: false });
  const files = readdirSync('/tmp/vf').sort();
  for (let i = 0; i < files.length; i += Number(process.argv[2] ?? 1)) {
    const jpeg = await sharp(readFileSync('/tmp/vf/' + files[i])).extract(OVAL).resize(W, H).jpeg({ quality: 60 }).toBuffer();
    const frame = await engine.analyze(jpeg, { embedding: false });
    const face = frame.faces[0];
    const g = checkGates(frame, engine.config);
    console.log(i, face ? `box ${face.box.map(Math.round)} ext ${face.extent?.map(Math.round)} ear ${face.ear.mean.toFixed(3)}` : '-', g.ok ? 'ok' : g.failed.join('+'));
  }
  await engine.close();
}
main();

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  identityPaths,
  livenessResponse,
  scanIdResponse,
  startKycResponse,
} from '../../contract/identity';
import { createTestApp, type TestApp } from '../server/helpers';
import { cameraFrame } from './frames';

/**
 * The identity endpoints as the real app serves them (server/app.ts wiring, error handling, body
 * limits): the plugin creates its own engine from IDENTITY_* settings on the first identity call.
 */
process.env.IDENTITY_POOL_SIZE = '1';
process.env.IDENTITY_WARM_OCR = '0';

let t: TestApp;
const T = 120_000;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

function multipart(fields: Record<string, string>, file?: { name: string; value: Buffer }) {
  const boundary = '----app' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    );
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="f.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      file.value,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('identity endpoints in the app', () => {
  it('start-kyc, then a frame', { timeout: T }, async () => {
    const start = await t.app.inject({ method: 'POST', url: identityPaths.startKyc });
    expect(start.statusCode).toBe(200);
    const { session_id } = startKycResponse.parse(start.json());
    const res = await t.app.inject({
      method: 'POST',
      url: identityPaths.liveness,
      ...multipart(
        { session_id },
        { name: 'frame', value: await cameraFrame('blink-open.jpg', { seed: 5 }) },
      ),
    });
    expect(res.statusCode).toBe(200);
    expect(livenessResponse.parse(res.json()).liveness_detected).toBe(false);
  });

  it(
    'wrong media type and wrong file type are 415 with a Spanish message',
    { timeout: T },
    async () => {
      const json = await t.app.inject({
        method: 'POST',
        url: identityPaths.liveness,
        payload: { session_id: 'x' },
      });
      expect(json.statusCode).toBe(415);
      expect(json.json()).toMatchObject({ success: false });
      const text = await t.app.inject({
        method: 'POST',
        url: identityPaths.liveness,
        ...multipart(
          { session_id: 'x' },
          { name: 'frame', value: Buffer.from('not an image at all') },
        ),
      });
      expect(text.statusCode).toBe(415);
      expect(text.json().message).toMatch(/JPEG o PNG/);
    },
  );

  it('scan-id on an unknown session names it', { timeout: T }, async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: identityPaths.scanId,
      ...multipart(
        { session_id: 'f00' },
        { name: 'image_front', value: await cameraFrame('blink-open.jpg', { seed: 6 }) },
      ),
    });
    expect(scanIdResponse.parse(res.json()).error).toContain('invalid session');
  });
});

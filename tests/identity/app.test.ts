import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  identityPaths,
  livenessResponse,
  scanIdResponse,
  startKycResponse,
} from '../../contract/identity';
import { createTestApp, type TestApp } from '../server/helpers';
import { cameraFrame, multipart } from './frames';

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

describe('identity endpoints in the app', () => {
  it('start-kyc, then a frame', { timeout: T }, async () => {
    const start = await t.app.inject({ method: 'POST', url: identityPaths.startKyc });
    expect(start.statusCode).toBe(200);
    const { session_id } = startKycResponse.parse(start.json());
    const res = await t.app.inject({
      method: 'POST',
      url: identityPaths.liveness,
      ...multipart([
        { name: 'session_id', value: session_id },
        // The frame's tag (issue 31: the default challenge needs one per frame).
        { name: 'meta', value: JSON.stringify({ frames: [{ t: 0, light: -1 }] }) },
        {
          name: 'frame',
          value: await cameraFrame('blink-open.jpg', { seed: 5 }),
          filename: 'frame.jpg',
        },
      ]),
    });
    expect(res.statusCode).toBe(200);
    const answer = livenessResponse.parse(res.json());
    expect(answer.liveness_detected).toBe(false);
    expect(answer.challenge).toEqual({ cue: null, next_cue: null, later_cue: null, light: null });
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
        ...multipart([
          { name: 'session_id', value: 'x' },
          { name: 'frame', value: Buffer.from('not an image at all'), filename: 'frame.jpg' },
        ]),
      });
      expect(text.statusCode).toBe(415);
      expect(text.json().message).toMatch(/JPEG o PNG/);
    },
  );

  it('scan-id on an unknown session names it', { timeout: T }, async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: identityPaths.scanId,
      ...multipart([
        { name: 'session_id', value: 'f00' },
        {
          name: 'image_front',
          value: await cameraFrame('blink-open.jpg', { seed: 6 }),
          filename: 'frontal.jpg',
        },
      ]),
    });
    expect(scanIdResponse.parse(res.json()).error).toContain('invalid session');
  });
});

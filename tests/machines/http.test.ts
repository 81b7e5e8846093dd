import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { request } from '../../machines/shared/http';

const schema = z.object({ ok: z.boolean() });
const answer = (body: unknown, status = 200) =>
  vi.fn(async () => new Response(JSON.stringify(body), { status }));

afterEach(() => vi.unstubAllGlobals());

describe('request with a schema loaded beside it (contract/session on /login)', () => {
  it('sends at once, then validates the answer with the schema once it has loaded', async () => {
    const fetch = answer({ ok: true });
    vi.stubGlobal('fetch', fetch);
    let load: (s: typeof schema) => void = () => {};
    const pending = request('/api/x', { schema: new Promise<typeof schema>((r) => (load = r)) });
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    load(schema);
    await expect(pending).resolves.toEqual({ ok: true });
  });

  it('an answer that does not match the loaded schema is invalidResponse', async () => {
    vi.stubGlobal('fetch', answer({ ok: 'yes' }));
    await expect(request('/api/x', { schema: Promise.resolve(schema) })).rejects.toMatchObject({
      code: 'invalidResponse',
    });
  });

  it('a schema that fails to load: an error answer still says why, and nothing goes unhandled', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      vi.stubGlobal('fetch', answer({ success: false, message: 'No.' }, 401));
      const failed = Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
      await expect(request('/api/x', { schema: failed })).rejects.toMatchObject({
        code: 'server',
        serverMessage: 'No.',
      });
      await new Promise((r) => setTimeout(r, 0));
      expect(unhandled).not.toHaveBeenCalled();
      vi.stubGlobal('fetch', answer({ ok: true }));
      const failedAgain = Promise.reject(
        new TypeError('Failed to fetch dynamically imported module'),
      );
      await expect(request('/api/x', { schema: failedAgain })).rejects.toBeInstanceOf(TypeError);
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});

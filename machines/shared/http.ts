import type { Schema } from '../../contract/common';
import { ApiError } from './errors';

type RequestOptions<T> = {
  method?: 'GET' | 'POST';
  body?: unknown;
  /** multipart bodies (camera frames, document photos) */
  form?: FormData;
  /** or the promise of one: a schema loaded beside the request (contract/login and contract/session off /login's first load) */
  schema: Schema<T> | PromiseLike<Schema<T>>;
  signal?: AbortSignal | undefined;
};

/**
 * The only fetch in the browser. Resolves with the parsed body of a 2xx answer whose JSON matches
 * `schema`; otherwise throws ApiError:
 * - `network`: no answer at all (offline, DNS, aborted connection)
 * - `tooManyAttempts`: 429, with Retry-After in seconds
 * - `server`: any other non-2xx, with the server's message when it sent one
 * - `invalidResponse`: a 2xx that is not JSON or does not match the contract
 * A `success: false` body is not an error here: each flow decides what it means.
 */
export async function request<T>(url: string, options: RequestOptions<T>): Promise<T> {
  const schema = Promise.resolve(options.schema);
  // Awaited only after a 2xx answer: a schema that failed to load must not go unhandled before.
  schema.catch(() => {});
  const init: RequestInit = {
    method: options.method ?? (options.body !== undefined || options.form ? 'POST' : 'GET'),
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
    signal: options.signal ?? null,
  };
  if (options.form) init.body = options.form;
  else if (options.body !== undefined) {
    init.headers = { ...init.headers, 'content-type': 'application/json' };
    init.body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    if (options.signal?.aborted) throw err;
    throw new ApiError('network', undefined, undefined);
  }
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new ApiError(response.ok ? 'invalidResponse' : 'server', response.status, undefined);
  }
  if (!response.ok) {
    const field = (name: 'message' | 'reason'): string | undefined => {
      const value =
        json && typeof json === 'object' ? (json as Record<string, unknown>)[name] : undefined;
      return typeof value === 'string' && value ? value : undefined;
    };
    const message = field('message');
    if (response.status === 429) {
      const retry = Number(response.headers.get('retry-after'));
      throw new ApiError(
        'tooManyAttempts',
        429,
        message,
        Number.isFinite(retry) ? retry : undefined,
      );
    }
    throw new ApiError('server', response.status, message, undefined, field('reason'));
  }
  const parsed = (await schema).safeParse(json);
  if (!parsed.success) throw new ApiError('invalidResponse', response.status, undefined);
  return parsed.data;
}

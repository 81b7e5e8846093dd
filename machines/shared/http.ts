import type { Schema } from '../../contract/common';
import { ApiError } from './errors';

type RequestOptions<T> = {
  method?: 'GET' | 'POST';
  body?: unknown;
  /** multipart bodies (camera frames, document photos) */
  form?: FormData;
  /** a raw body sent with its own type (the back office's desk photo, image/jpeg) */
  blob?: Blob;
  /** or the promise of one: a schema loaded beside the request (contract/login and contract/session off /login's first load) */
  schema: Schema<T> | PromiseLike<Schema<T>>;
  signal?: AbortSignal | undefined;
  /** the browser completes the request even when the page is left (small bodies: under 64 KB) */
  keepalive?: boolean;
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
    method:
      options.method ??
      (options.body !== undefined || options.form || options.blob ? 'POST' : 'GET'),
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
    signal: options.signal ?? null,
    ...(options.keepalive ? { keepalive: true } : {}),
  };
  if (options.form) init.body = options.form;
  else if (options.blob) {
    init.headers = { ...init.headers, 'content-type': options.blob.type };
    init.body = options.blob;
  } else if (options.body !== undefined) {
    init.headers = { ...init.headers, 'content-type': 'application/json' };
    init.body = JSON.stringify(options.body);
  }
  const response = await send(url, init, options.signal);
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new ApiError(response.ok ? 'invalidResponse' : 'server', response.status, undefined);
  }
  if (!response.ok) throw failure(response, json);
  const parsed = (await schema).safeParse(json);
  if (!parsed.success) throw new ApiError('invalidResponse', response.status, undefined);
  return parsed.data;
}

/** fetch, with no answer at all as ApiError `network` (an abort is rethrown as it is). */
async function send(url: string, init: RequestInit, signal: AbortSignal | undefined) {
  try {
    return await fetch(url, init);
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new ApiError('network', undefined, undefined);
  }
}

/** A non-2xx answer as ApiError: 429 with its Retry-After, else `server` with message and reason. */
function failure(response: Response, json: unknown): ApiError {
  const field = (name: 'message' | 'reason'): string | undefined => {
    const value =
      json && typeof json === 'object' ? (json as Record<string, unknown>)[name] : undefined;
    return typeof value === 'string' && value ? value : undefined;
  };
  const message = field('message');
  if (response.status === 429) {
    const retry = Number(response.headers.get('retry-after'));
    return new ApiError(
      'tooManyAttempts',
      429,
      message,
      Number.isFinite(retry) ? retry : undefined,
    );
  }
  return new ApiError('server', response.status, message, undefined, field('reason'));
}

/**
 * A GET answered with an image (the back office's evidence): the Blob of a 2xx answer of that
 * type; any other answer throws ApiError as `request` does.
 */
export async function requestImage(url: string, signal?: AbortSignal): Promise<Blob> {
  const response = await send(
    url,
    {
      method: 'GET',
      credentials: 'same-origin',
      headers: { accept: 'image/*' },
      signal: signal ?? null,
    },
    signal,
  );
  if (!response.ok) {
    const json: unknown = await response.json().catch(() => undefined);
    throw failure(response, json);
  }
  const blob = await response.blob();
  if (!blob.type.startsWith('image/'))
    throw new ApiError('invalidResponse', response.status, undefined);
  return blob;
}

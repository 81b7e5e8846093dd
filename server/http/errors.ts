import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
} from 'fastify';
import { CONTROL_CHARACTER, type Schema } from '../../contract/common';
import { messages } from './messages';

/**
 * Thrown by routes and services: answered as JSON `{ success: false, message }` with `status`, and
 * `reason` when the browser must tell this refusal from others (contract/common.ts errorResponse).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly reason?: string,
  ) {
    super(message);
  }
}

export function tooManyAttempts(retryAfterSeconds: number): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new HttpError(429, messages.tooManyAttempts(Math.ceil(seconds / 60)), {
    'retry-after': String(seconds),
  });
}

/** Validates input against a contract schema; bad input is a 400 with a Spanish message. */
export function parseOr400<T>(
  schema: Schema<T>,
  data: unknown,
  message: string = messages.badRequest,
): T {
  const r = schema.safeParse(data);
  if (!r.success) throw new HttpError(400, message);
  return r.data;
}

type FieldSchema<T> = {
  safeParse(
    data: unknown,
  ): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[] }[] } };
};

/** Validates a body against its contract schema; the 400's message names the first bad field. */
export function parseBody<T>(
  schema: FieldSchema<T>,
  body: unknown,
  byField: Record<string, string>,
  fallback: string,
): T {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const field = r.error.issues[0]?.path[0];
  throw new HttpError(400, (typeof field === 'string' && byField[field]) || fallback);
}

const fastifyCodes: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: messages.unsupportedMediaType },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: messages.badRequest },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: messages.payloadTooLarge },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: messages.badRequest },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: messages.badJson },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, message: messages.unsupportedMediaType },
  FST_REQ_FILE_TOO_LARGE: { status: 413, message: messages.payloadTooLarge },
  FST_FILES_LIMIT: { status: 413, message: messages.payloadTooLarge },
  FST_PARTS_LIMIT: { status: 413, message: messages.payloadTooLarge },
  FST_FIELDS_LIMIT: { status: 413, message: messages.payloadTooLarge },
};

/** The Spanish error body every client-visible error has. */
const errorBody = (message: string) => JSON.stringify({ success: false, message });

/**
 * Errors Fastify and Node answer before any route runs, in the API's Spanish shape: a URL that does
 * not decode (`/api/%ff`) or a path parameter over the router's limit (400, never Fastify's code or
 * the echoed path), and the HTTP parser's own answers (malformed request 400, headers too large 431,
 * request timeout 408). Spread into Fastify's options. Fastify's own 503 for requests that arrive
 * while the app closes (English JSON) is turned off: installErrorHandling answers them in Spanish.
 */
export const frameworkErrorOptions = {
  return503OnClosing: false,
  frameworkErrors(_error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
    void reply
      .status(400)
      .header('content-type', 'application/json; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(errorBody(messages.badRequest));
  },
  clientErrorHandler(err: Error & { code?: string }, socket: Socket) {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, message] =
      err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, messages.requestTimeout]
        : err.code === 'HPE_HEADER_OVERFLOW'
          ? [431, messages.headersTooLarge]
          : [400, messages.badRequest];
    const body = errorBody(message);
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  },
} satisfies Pick<
  FastifyServerOptions,
  'frameworkErrors' | 'clientErrorHandler' | 'return503OnClosing'
>;

/** True when a string anywhere in a parsed body holds a NUL (PostgreSQL text cannot). */
function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  const values = Array.isArray(value) ? value : Object.values(value);
  return (
    values.some((v) => holdsNul(v, depth + 1)) ||
    Object.keys(value).some((k) => k.includes('\u0000'))
  );
}

/** True when a path parameter or query value holds a control character. */
function holdsControl(record: unknown): boolean {
  if (!record || typeof record !== 'object') return false;
  return Object.values(record).some((v) =>
    Array.isArray(v)
      ? v.some((x) => typeof x === 'string' && CONTROL_CHARACTER.test(x))
      : typeof v === 'string' && CONTROL_CHARACTER.test(v),
  );
}

const routeLists = new WeakMap<FastifyInstance, { method: string; url: string }[]>();

/** Every route registered after installErrorHandling, as `{ method, url }` (HEAD left out). */
export function registeredRoutes(app: FastifyInstance): { method: string; url: string }[] {
  return [...(routeLists.get(app) ?? [])];
}

export function installErrorHandling(app: FastifyInstance): void {
  const routes: { method: string; url: string }[] = [];
  routeLists.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routes.push({ method, url: route.url });
    }
  });
  // The contract rejects control characters in every text field (contract/common.ts); this is the
  // net under every route, including ones added later: control characters in a path parameter or
  // query, or a NUL anywhere in a JSON body, are a 400 before any handler or database sees them.
  app.addHook('preValidation', async (request) => {
    if (holdsControl(request.params) || holdsControl(request.query) || holdsNul(request.body)) {
      throw new HttpError(400, messages.badRequest);
    }
  });
  // Graceful shutdown: once the app closes, a request that still arrives (on a kept-alive
  // connection that was busy when the server stopped accepting) is answered 503 in Spanish, with
  // `Connection: close` so the client opens its next connection to another process, before any
  // handler or the database (closing next) sees it.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async () => {
    if (closing) {
      throw new HttpError(503, messages.shuttingDown, { connection: 'close', 'retry-after': '1' });
    }
  });
  app.setErrorHandler((err: FastifyError | HttpError, request, reply) => {
    if (err instanceof HttpError) {
      reply.headers(err.headers);
      return reply.status(err.status).send({
        success: false,
        message: err.message,
        ...(err.reason ? { reason: err.reason } : {}),
      });
    }
    const known = err.code ? fastifyCodes[err.code] : undefined;
    if (known) return reply.status(known.status).send({ success: false, message: known.message });
    if (err.name === 'SyntaxError' || err.code?.startsWith('FST_ERR_CTP')) {
      return reply.status(400).send({ success: false, message: messages.badRequest });
    }
    if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send({ success: false, message: messages.badRequest });
    }
    request.log.error(
      { err: { name: err.name, code: err.code, message: err.message, stack: err.stack } },
      'unhandled',
    );
    return reply.status(500).send({ success: false, message: messages.internal });
  });
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api') {
      return reply.status(404).send({ success: false, message: messages.notFound });
    }
    return reply.callNotFound();
  });
}

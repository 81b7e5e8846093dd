import type { FastifyError, FastifyInstance } from 'fastify';
import type { Schema } from '../../machines/shared/http';
import { messages } from './messages';

/** Thrown by routes and services: answered as JSON `{ success: false, message }` with `status`. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
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

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | HttpError, request, reply) => {
    if (err instanceof HttpError) {
      reply.headers(err.headers);
      return reply.status(err.status).send({ success: false, message: err.message });
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

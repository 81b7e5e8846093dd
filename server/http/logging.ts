import {
  LogController,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import pretty from 'pino-pretty';

/** Fields that must never reach a log line, wherever they appear. */
const REDACT = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  '*.pin',
  '*.otp',
  '*.frame',
  '*.image',
];

type LogSettings = { level: string; format: 'pretty' | 'json' };

/**
 * Fastify's logger: JSON lines (production, tests, log collectors) or, for a person at a terminal
 * (development by default), one readable line per event. Redaction applies to both. Pretty output
 * is written synchronously, so the last lines before an exit are not lost.
 */
export function loggerOptions(
  settings: LogSettings,
  destination?: NodeJS.WritableStream,
): FastifyServerOptions['logger'] {
  if (settings.level === 'silent') return false;
  const base = { level: settings.level, redact: { paths: REDACT, censor: '[oculto]' } };
  if (settings.format === 'json') return destination ? { ...base, stream: destination } : base;
  return {
    ...base,
    stream: pretty({
      sync: true,
      ...(destination ? { destination } : {}),
      colorize: Boolean(process.stdout.isTTY),
      translateTime: 'HH:MM:ss.l',
      ignore: 'pid,hostname,reqId,req,res,responseTime,request',
      singleLine: true,
    }),
  };
}

/**
 * One line per request, when it is answered: method, path (no query string: it may carry a phone
 * number), status and time, instead of Fastify's two ('incoming request', 'request completed').
 * Pass as Fastify's `logController`.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const path = request.url.split('?')[0];
    const ms = Math.round(reply.elapsedTime);
    const status = reply.statusCode;
    const line = `${request.method} ${path} ${status} ${ms} ms`;
    const fields = { request: { method: request.method, path, status, ms, ip: request.ip } };
    // 503 is an expected answer (starting, busy, shutting down): a warning, not an error.
    if (error || (status >= 500 && status !== 503))
      reply.log.error({ ...fields, err: error ?? undefined }, line);
    else if (status === 503) reply.log.warn(fields, line);
    else reply.log.info(fields, line);
  }
}

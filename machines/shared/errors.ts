/**
 * Error codes every flow stores in context (never sentences: the Spanish lives in src/copy/es.ts).
 * `server` means the server answered with a message of its own, kept beside the code.
 */
type FlowErrorCode =
  'network' | 'server' | 'rejected' | 'tooManyAttempts' | 'invalidResponse' | 'unknown';

export type FlowError = {
  code: FlowErrorCode;
  status?: number;
  serverMessage?: string;
  retryAfterSeconds?: number;
  /** the error answer's `reason`, for the refusals a flow answers with a step of its own */
  reason?: string;
};

/** Thrown by machines/shared/http.ts for anything but a 2xx JSON answer. */
export class ApiError extends Error {
  constructor(
    readonly code: FlowErrorCode,
    readonly status: number | undefined,
    readonly serverMessage: string | undefined,
    readonly retryAfterSeconds?: number,
    readonly reason?: string,
  ) {
    super(serverMessage ?? code);
    this.name = 'ApiError';
  }
}

export function toFlowError(err: unknown): FlowError {
  if (err instanceof ApiError) {
    const out: FlowError = { code: err.code };
    if (err.status !== undefined) out.status = err.status;
    if (err.serverMessage) out.serverMessage = err.serverMessage;
    if (err.retryAfterSeconds !== undefined) out.retryAfterSeconds = err.retryAfterSeconds;
    if (err.reason) out.reason = err.reason;
    return out;
  }
  if (err instanceof TypeError) return { code: 'network' };
  return { code: 'unknown' };
}

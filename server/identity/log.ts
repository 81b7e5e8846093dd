/** Structured log sink (pino-compatible). Scores, thresholds and timings only: never images, PINs, documents. */
export type IdentityLog = {
  info(obj: Record<string, unknown>, msg?: string): void;
  warn(obj: Record<string, unknown>, msg?: string): void;
};
export const silentLog: IdentityLog = { info: () => {}, warn: () => {} };

/** Milliseconds since `t0` (performance.now()), rounded. */
export const ms = (t0: number) => Math.round(performance.now() - t0);
export const round3 = (x: number | null) => (x === null ? null : Number(x.toFixed(3)));
/** A session id in the log: its first 8 characters. */
export const short = (id: string) => id.slice(0, 8);

import * as z from 'zod/mini';

/**
 * 'Mis datos' (issue 45): the patient's download (item 2) and the secondary-use opt-out (item 7).
 * The session cookie says whose: nothing in a path or a body names a patient.
 */
export const myDataDownloadPaths = {
  /** POST: ask for the file (built once per window); GET with ?t=<token>: the file itself */
  download: '/api/mis-datos/descarga',
  /** GET: the choice; POST { optedOut }: change it */
  secondaryUse: '/api/mis-datos/usos-secundarios',
} as const;

/** The file's link: a random token in the query (a path is logged, a query never is). */
export const downloadHref = (token: string) =>
  `${myDataDownloadPaths.download}?t=${encodeURIComponent(token)}`;

/**
 * POST /api/mis-datos/descarga: the file is ready (its link, until when, its size), or another
 * request is building it right now (ask again shortly).
 */
export const downloadResponse = z.union([
  z.object({
    success: z.literal(true),
    status: z.literal('ready'),
    token: z.string(),
    expiresAt: z.string(),
    fileName: z.string(),
    size: z.number(),
  }),
  z.object({
    success: z.literal(true),
    status: z.literal('building'),
    retryAfterMs: z.number(),
  }),
]);
export type DownloadResponse = z.infer<typeof downloadResponse>;
export type DownloadReady = Extract<DownloadResponse, { status: 'ready' }>;

export const secondaryUseResponse = z.object({
  success: z.literal(true),
  /** true: no use of the patient's data beyond their own care */
  optedOut: z.boolean(),
  /** when the patient last changed it (null: never) */
  changedAt: z.nullable(z.string()),
});
export type SecondaryUseResponse = z.infer<typeof secondaryUseResponse>;

export const secondaryUseRequest = z.strictObject({ optedOut: z.boolean() });
export type SecondaryUseRequest = z.infer<typeof secondaryUseRequest>;

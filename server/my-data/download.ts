import { createHash, randomBytes } from 'node:crypto';
import AdmZip from 'adm-zip';
import type { DownloadResponse } from '../../contract/my-data-download';
import type { AppContext } from '../context';
import { HttpError } from '../http/errors';
import { createSealer } from '../security/sealed';
import { recordAccess } from './access-log';
import { readDownloadContent, type DownloadContent, type DownloadImage } from './download-content';
import { downloadDigest } from './download-digest';
import { downloadHtml } from './download-html';
import { downloadMessages as m } from './download-messages';

/**
 * The patient's download (issue 45 item 2): one zip file (datos.json, resumen.html and the images
 * still kept), built on the server once per window and per data. The row in `my_data_downloads` is
 * the claim: the request that inserts it builds; every other one within the window gets the same
 * file (or 'building' while it is built) while the data it was built from is unchanged (its digest,
 * download-digest.ts), so a flood costs one build; data changed since (a correction, a purge, the
 * face withdrawn) and the file is replaced by a new build. The file and the token are sealed under
 * CASES_KEY; the token is found by its SHA-256 and is bound to the patient: another patient's
 * session gets 404 with it.
 */

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const sealContext = (patientId: string, part: 'file' | 'token') => `download:${patientId}:${part}`;
/** What the browser waits before asking again while another request builds the file. */
const BUILDING_RETRY_MS = 1000;

/** A file's name: the day only, never a name or a number (a proxy may log the header). */
const fileNameOf = (at: Date) => `mis-datos-${at.toISOString().slice(0, 10)}.zip`;

type Read = { content: DownloadContent; images: DownloadImage[] };

/** The zip of what was read: the data for a computer, the summary for a person, the images kept. */
function zipOf({ content, images }: Read): Promise<Buffer> {
  const zip = new AdmZip();
  zip.addFile('datos.json', Buffer.from(JSON.stringify(content, null, 2), 'utf8'));
  zip.addFile('resumen.html', Buffer.from(downloadHtml(content), 'utf8'));
  for (const image of images) zip.addFile(image.name, image.bytes);
  return zip.toBufferPromise();
}

/** Builds the zip: the data for a computer, the summary for a person, the images still kept. */
export async function buildDownloadFile(ctx: AppContext, patientId: string): Promise<Buffer> {
  return zipOf(await readDownloadContent(ctx, patientId));
}

type Row = {
  status: 'building' | 'ready';
  digest: string | null;
  token: Buffer | null;
  file_name: string | null;
  size: number | null;
  expires_at: Date;
};

/** Asks for the file: the one of this window, or a new one built now (only by one request). */
export async function requestDownload(
  ctx: AppContext,
  patientId: string,
): Promise<DownloadResponse> {
  const settings = ctx.myDataDownload;
  const sealer = createSealer(ctx.secrets.casesKey);
  for (let tries = 0; tries < 3; tries++) {
    const now = new Date(ctx.clock.now());
    // Every expired link goes (a build given up too), this patient's included.
    await purgeDownloads(ctx);
    // What the file would hold now: a file of the window is reused only if built from the same.
    let read: Read;
    try {
      read = await readDownloadContent(ctx, patientId);
    } catch {
      return failed(ctx, patientId, now);
    }
    const digest = downloadDigest(read.content, read.images);
    // The link's token is made with the claim: its hash names this build (never served while
    // 'building'), so only the request that claimed may store the file.
    const token = randomBytes(32).toString('base64url');
    const claimed = await ctx.db.query(
      `INSERT INTO my_data_downloads (patient_id, status, token_hash, digest, requested_at, expires_at)
       VALUES ($1, 'building', $2, $3, $4, $5) ON CONFLICT (patient_id) DO NOTHING RETURNING 1`,
      [patientId, hashToken(token), digest, now, new Date(now.getTime() + settings.buildMs)],
    );
    if (claimed.rows.length) return build(ctx, patientId, token, now, read);
    const row = (
      await ctx.db.query<Row>(
        `SELECT status, digest, token, file_name, size, expires_at FROM my_data_downloads
          WHERE patient_id = $1 AND expires_at > $2`,
        [patientId, now],
      )
    ).rows[0];
    if (!row) continue; // expired or given up between the two statements: claim again
    // Another request builds (from these data or others): ask again once it has stored its file.
    if (row.status === 'building')
      return { success: true, status: 'building', retryAfterMs: BUILDING_RETRY_MS };
    if (row.digest !== digest) {
      // The data changed since the window's file was built: this request replaces it with a new
      // build (one request wins the row; its old link stops working: it held stale data).
      const replaced = await ctx.db.query(
        `UPDATE my_data_downloads
            SET status = 'building', token_hash = $3, digest = $4, token = NULL, file = NULL,
                file_name = NULL, size = NULL, built_at = NULL, requested_at = $5, expires_at = $6
          WHERE patient_id = $1 AND status = 'ready' AND digest IS NOT DISTINCT FROM $2
          RETURNING 1`,
        [
          patientId,
          row.digest,
          hashToken(token),
          digest,
          now,
          new Date(now.getTime() + settings.buildMs),
        ],
      );
      if (replaced.rows.length) return build(ctx, patientId, token, now, read);
      continue; // another request replaced it first: look again
    }
    return {
      success: true,
      status: 'ready',
      token: sealer.open(row.token!, sealContext(patientId, 'token')).toString('utf8'),
      expiresAt: new Date(row.expires_at).toISOString(),
      fileName: row.file_name!,
      size: row.size!,
    };
  }
  throw new HttpError(503, m.busy, { 'retry-after': '1' });
}

/** A build that failed: logged as such, and a 503 that says to try again. */
async function failed(ctx: AppContext, patientId: string, requestedAt: Date): Promise<never> {
  await recordAccess(ctx.db, { patientId, kind: 'download', result: 'failed', at: requestedAt });
  throw new HttpError(503, m.buildFailed, { 'retry-after': '5' });
}

async function build(
  ctx: AppContext,
  patientId: string,
  token: string,
  requestedAt: Date,
  read: Read,
): Promise<DownloadResponse> {
  const sealer = createSealer(ctx.secrets.casesKey);
  let file: Buffer;
  try {
    file = await zipOf(read);
  } catch {
    await ctx.db.query(
      `DELETE FROM my_data_downloads WHERE patient_id = $1 AND status = 'building' AND token_hash = $2`,
      [patientId, hashToken(token)],
    );
    return failed(ctx, patientId, requestedAt);
  }
  const builtAt = new Date(ctx.clock.now());
  const expiresAt = new Date(builtAt.getTime() + ctx.myDataDownload.linkMs);
  const fileName = fileNameOf(builtAt);
  const stored = await ctx.db.transaction(async (tx) => {
    const { rows } = await tx.query(
      `UPDATE my_data_downloads
          SET status = 'ready', token = $3, file = $4, file_name = $5, size = $6,
              built_at = $7, expires_at = $8
        WHERE patient_id = $1 AND status = 'building' AND token_hash = $2
        RETURNING 1`,
      [
        patientId,
        hashToken(token),
        sealer.seal(Buffer.from(token, 'utf8'), sealContext(patientId, 'token')),
        sealer.seal(file, sealContext(patientId, 'file')),
        fileName,
        file.length,
        builtAt,
        expiresAt,
      ],
    );
    if (rows.length)
      await recordAccess(tx, { patientId, kind: 'download', result: 'ok', at: builtAt });
    return rows.length > 0;
  });
  // The claim was given up (the build took longer than MY_DATA_DOWNLOAD_BUILD_SECONDS) and
  // another request holds it now: that one's file is the window's.
  if (!stored) throw new HttpError(503, m.busy, { 'retry-after': '1' });
  return {
    success: true,
    status: 'ready',
    token,
    expiresAt: expiresAt.toISOString(),
    fileName,
    size: file.length,
  };
}

/**
 * The file behind a link, for the patient of the session only: a token that is not theirs (or no
 * token the server made) is 404, one past its expiry 410; the same answer whatever the reason, so
 * the link tells nothing about another patient.
 */
export async function fetchDownload(
  ctx: AppContext,
  patientId: string,
  token: string,
): Promise<{ file: Buffer; fileName: string }> {
  const now = new Date(ctx.clock.now());
  const row = (
    await ctx.db.query<{
      patient_id: string;
      file: Buffer | null;
      file_name: string;
      expires_at: Date;
    }>(
      `SELECT patient_id::text AS patient_id, file, file_name, expires_at FROM my_data_downloads
        WHERE token_hash = $1 AND status = 'ready'`,
      [hashToken(token)],
    )
  ).rows[0];
  if (!row || row.patient_id !== patientId || !row.file) throw new HttpError(404, m.notFound);
  if (new Date(row.expires_at) <= now) {
    await purgeDownloads(ctx);
    throw new HttpError(410, m.expired);
  }
  const file = createSealer(ctx.secrets.casesKey).open(row.file, sealContext(patientId, 'file'));
  return { file, fileName: row.file_name };
}

/** Deletes every expired link's file and every build given up (at each request and on a timer). */
export async function purgeDownloads(ctx: Pick<AppContext, 'db' | 'clock'>): Promise<number> {
  const { rows } = await ctx.db.query(
    'DELETE FROM my_data_downloads WHERE expires_at <= $1 RETURNING 1',
    [new Date(ctx.clock.now())],
  );
  return rows.length;
}

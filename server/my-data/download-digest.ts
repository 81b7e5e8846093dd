import { createHash } from 'node:crypto';
import type { AccessKind } from '../../contract/my-data';
import type { DownloadContent, DownloadImage } from './download-content';

/**
 * What the download's window reuses a file on (issue 45 item 2): the SHA-256 of the data it was
 * built from. A correction applied, a case purged, the face withdrawn, a login, a look by the back
 * office, a consent changed: any of them changes the digest, and the next request builds anew.
 * Left out, because asking for the file writes them itself and the same data would never be
 * reused: when it was generated, the sessions' last use and expiry (every request with the session
 * touches them) and the patient's own looks at Mis datos and downloads in the access log.
 */
const ASKING_WRITES: ReadonlySet<AccessKind> = new Set<AccessKind>(['my_data', 'download']);

export function downloadDigest(content: DownloadContent, images: DownloadImage[]): string {
  const { generatedAt: _at, sessions, accesses, ...data } = content;
  const hash = createHash('sha256').update(
    JSON.stringify({
      ...data,
      sessions: sessions.map(({ lastSeenAt: _seen, expiresAt: _expires, ...s }) => s),
      accesses: accesses.filter((a) => !ASKING_WRITES.has(a.kind)),
    }),
  );
  for (const image of images) hash.update(image.name).update(image.bytes);
  return hash.digest('hex');
}

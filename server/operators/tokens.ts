import { createHash, randomBytes } from 'node:crypto';

/** Bearer tokens of the back office (enrolment links, session cookies): 32 random bytes, base64url. */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** What is stored of a token: its SHA-256 (256-bit random tokens need no slower hash). */
export const hashToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

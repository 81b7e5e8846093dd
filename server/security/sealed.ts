import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Sealing at rest (issue 30): identity evidence and review cases are stored only as AES-256-GCM
 * ciphertext under CASES_KEY. Each sealed value is bound to where it belongs (`context`, e.g.
 * 'case:<id>:front') as additional authenticated data, so a sealed image copied to another row or
 * column does not open. Format: version 1 (1 byte) | IV (12) | tag (16) | ciphertext.
 */
export type Sealer = {
  seal(plain: Uint8Array, context: string): Buffer;
  /** The plain bytes; throws when the key, the context or a single byte differs. */
  open(sealed: Uint8Array, context: string): Buffer;
};

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The key as configured: 32 bytes in base64 or base64url. */
export function casesKeyBytes(key: string): Buffer {
  const bytes = Buffer.from(key, 'base64url');
  if (bytes.length !== 32) throw new Error('CASES_KEY must be 32 bytes in base64 or base64url');
  return bytes;
}

export function createSealer(key: string): Sealer {
  const bytes = casesKeyBytes(key);
  return {
    seal(plain, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', bytes, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
    },
    open(sealed, context) {
      const data = Buffer.from(sealed);
      if (data.length < 1 + IV_BYTES + TAG_BYTES || data[0] !== VERSION)
        throw new Error('not a sealed value');
      const iv = data.subarray(1, 1 + IV_BYTES);
      const tag = data.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
      const decipher = createDecipheriv('aes-256-gcm', bytes, iv);
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([
        decipher.update(data.subarray(1 + IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]);
    },
  };
}

import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createSealer } from '../../server/security/sealed';
import { loadConfig } from '../../server/config';
import { ConfigError } from '../../server/env';
import { testSecrets } from './helpers';

const key = randomBytes(32).toString('base64url');

describe('sealing at rest (issue 30)', () => {
  const sealer = createSealer(key);
  const plain = Buffer.from('front of a cédula');

  it('opens what it sealed, in its own context only', () => {
    const sealed = sealer.seal(plain, 'case:1:front');
    expect(sealed.includes(plain)).toBe(false);
    expect(sealer.open(sealed, 'case:1:front').equals(plain)).toBe(true);
    expect(() => sealer.open(sealed, 'case:2:front')).toThrow();
    expect(() =>
      createSealer(randomBytes(32).toString('base64')).open(sealed, 'case:1:front'),
    ).toThrow();
  });

  it('refuses a value with one byte changed, and anything too short', () => {
    const sealed = sealer.seal(plain, 'c');
    sealed[sealed.length - 1]! ^= 1;
    expect(() => sealer.open(sealed, 'c')).toThrow();
    expect(() => sealer.open(Buffer.from([1, 2, 3]), 'c')).toThrow();
  });

  it('two seals of the same bytes differ (a fresh IV each time)', () => {
    expect(sealer.seal(plain, 'c').equals(sealer.seal(plain, 'c'))).toBe(false);
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => createSealer('c2hvcnQ')).toThrow(/32 bytes/);
  });

  it('production requires CASES_KEY', () => {
    const { CASES_KEY: _, ...withoutKey } = testSecrets;
    expect(() => loadConfig({ NODE_ENV: 'production', ...withoutKey })).toThrow(ConfigError);
    expect(loadConfig({ NODE_ENV: 'production', ...testSecrets }).casesKey).toBe(
      testSecrets.CASES_KEY,
    );
  });
});

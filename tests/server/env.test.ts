import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bool, ConfigError, int, num, parseEnv } from '../../server/env';
import { loadOnboardingSettings } from '../../server/onboarding/config';
import { createContext } from '../../server/app';
import { openTestDb, testConfig, testOnboardingSettings } from './helpers';

/** The one set of setting parsers every config file uses (server/env.ts). */
const schema = z.object({
  FLAG: bool.default(false),
  COUNT: int(5),
  DELAY_MS: int(300, 0, 1000),
  RATIO: num(0.5, 0, 1),
});

describe('settings from the environment', () => {
  it('unset settings take their defaults', () => {
    expect(parseEnv(schema, {})).toEqual({ FLAG: false, COUNT: 5, DELAY_MS: 300, RATIO: 0.5 });
  });

  it('reads yes/no as 1/0, true/false or yes/no, and numbers from text', () => {
    for (const v of ['1', 'true', 'yes']) expect(parseEnv(schema, { FLAG: v }).FLAG).toBe(true);
    for (const v of ['0', 'false', 'no']) expect(parseEnv(schema, { FLAG: v }).FLAG).toBe(false);
    expect(parseEnv(schema, { COUNT: '12', DELAY_MS: '0', RATIO: '0.25' })).toMatchObject({
      COUNT: 12,
      DELAY_MS: 0,
      RATIO: 0.25,
    });
  });

  it('a bad value stops the start with ConfigError naming the setting', () => {
    for (const env of [
      { FLAG: 'maybe' },
      { COUNT: '0' }, // whole numbers start at 1 unless the setting says otherwise
      { COUNT: '2.5' },
      { DELAY_MS: '1001' },
      { RATIO: '1.5' },
    ]) {
      const name = Object.keys(env)[0]!;
      expect(() => parseEnv(schema, env), name).toThrow(ConfigError);
      expect(() => parseEnv(schema, env), name).toThrow(
        new RegExp(`^Invalid configuration:\\n${name}: `),
      );
    }
  });
});

describe('the SMS link in production (issue 29 item 3)', () => {
  const gateway = { SMS_GATEWAY_URL: 'https://sms.example.com/send' };
  it('requires ONBOARDING_PUBLIC_URL: the link never takes its origin from a request', () => {
    expect(() => loadOnboardingSettings(gateway, 'production')).toThrow(ConfigError);
    expect(() => loadOnboardingSettings(gateway, 'production')).toThrow(/ONBOARDING_PUBLIC_URL/);
    const set = loadOnboardingSettings(
      { ...gateway, ONBOARDING_PUBLIC_URL: 'https://pacientes.example.gov.py/' },
      'production',
    );
    expect(set.registration.publicUrl).toBe('https://pacientes.example.gov.py');
  });

  it('outside production it may be unset (the address the browser called)', () => {
    expect(loadOnboardingSettings({}, 'development').registration.publicUrl).toBeNull();
  });
});

describe('every area reads its settings in createContext (issue 27 part 5)', () => {
  it('a bad IDENTITY_* value stops the start there, naming the setting; the context holds them', async () => {
    const db = await openTestDb();
    try {
      const deps = { onboarding: testOnboardingSettings(), db };
      await expect(
        createContext(testConfig(), deps, { IDENTITY_POOL_SIZE: 'many' }),
      ).rejects.toThrow(/IDENTITY_POOL_SIZE/);
      const ctx = await createContext(testConfig(), deps, { IDENTITY_POOL_SIZE: '3' });
      expect(ctx.identitySettings.poolSize).toBe(3);
    } finally {
      await db.close();
    }
  });
});

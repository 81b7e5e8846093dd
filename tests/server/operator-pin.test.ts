import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../server/app';
import { ConfigError } from '../../server/env';
import { openDb } from '../../server/db/client';
import { openTestDb, testConfig, testOnboardingSettings } from './helpers';
import { addPatient, addPatientArgs, liveEnvironment, run } from './processes';

/**
 * The operator command `patients add` (issue 21): the PIN never travels in its arguments (item 7),
 * and it writes only with the pepper the database's PINs were made with (item 11). Real processes
 * on a PGlite folder (the command opens it itself).
 */
const SLOW = 240_000;
const patient = { documento: '7200001', pin: '135790', celular: '0981400001' };
const OTHER_PEPPER = 'another-pepper-another-pepper-another-01';

describe.skipIf(process.env.TEST_DATABASE_URL)('patients add', () => {
  let env: Record<string, string>;
  let cleanup: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    ({ env, cleanup } = await liveEnvironment('pglite', 'operator-pin'));
  });
  afterAll(() => cleanup?.());

  const pinHash = async () => {
    const db = await openDb({ dataDir: env.DATA_DIR! });
    try {
      const { rows } = await db.query<{ pin_hash: string }>(
        'SELECT pin_hash FROM patients WHERE numero_documento = $1',
        [patient.documento],
      );
      return rows[0]?.pin_hash ?? null;
    } finally {
      await db.close();
    }
  };

  it(
    'reads the PIN from standard input with --pin-stdin; its arguments never hold it',
    async () => {
      let cmdline = '';
      const r = await run(addPatientArgs(patient), env, {
        input: `${patient.pin}\n`,
        onSpawn: (child) => {
          cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8');
        },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout.trim().split('\n').pop()!)).toMatchObject({
        ok: true,
        created: true,
      });
      expect(cmdline).toContain('--pin-stdin');
      expect(cmdline).not.toContain(patient.pin);
      expect(await pinHash()).toMatch(/^\$argon2id\$/);
    },
    SLOW,
  );

  it(
    'refuses --pin (argv) and a missing PIN without a terminal, writing nothing',
    async () => {
      const before = await pinHash();
      const withPin = await run(
        [...addPatientArgs(patient).filter((a) => a !== '--pin-stdin'), '--pin', '975310'],
        env,
      );
      expect(withPin.code).toBe(2);
      expect(withPin.stderr).toMatch(/--pin is not accepted/);
      const noPin = await run(
        addPatientArgs(patient).filter((a) => a !== '--pin-stdin'),
        env,
      );
      expect(noPin.code).toBe(2);
      expect(noPin.stderr).toMatch(/No PIN/);
      expect(await pinHash()).toBe(before);
    },
    SLOW,
  );

  it(
    'with another PIN_PEPPER than the database was written with: refuses and writes nothing',
    async () => {
      const before = await pinHash();
      const r = await run(
        addPatientArgs({ ...patient, pin: '975310' }),
        {
          ...env,
          PIN_PEPPER: OTHER_PEPPER,
        },
        { input: '975310\n' },
      );
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/pin_pepper_mismatch/);
      expect(r.stderr).toMatch(/PIN_PEPPER is not the pepper/);
      expect(await pinHash()).toBe(before);
      // The right pepper still writes.
      expect(await addPatient({ ...patient, pin: '975310' }, env)).toMatchObject({ ok: true });
      expect(await pinHash()).not.toBe(before);
    },
    SLOW,
  );
});

describe('a server with another PIN_PEPPER than its database', () => {
  it('refuses to start with a message naming PIN_PEPPER', async () => {
    const db = await openTestDb();
    try {
      await createContext(testConfig(), { onboarding: testOnboardingSettings(), db });
      const err = await createContext(testConfig({ PIN_PEPPER: OTHER_PEPPER }), {
        onboarding: testOnboardingSettings(),
        db,
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toMatch(/^PIN_PEPPER is not the pepper/);
    } finally {
      await db.close();
    }
  }, 60_000);
});

import { describe, expect, it } from 'vitest';
import { onboardingPaths } from '../../contract/onboarding';
import { DuplicateCheckWaiting } from '../../server/onboarding/kyc-store';
import { evidence, ID_DATA, useCaseApps } from './cases-fixtures';

/**
 * Issue 44: the duplicate search of the verified face not finished within
 * IDENTITY_DUPLICATE_WAIT_MS (the identity engine's side: tests/identity/duplicates-wait.test.ts).
 * Registration is never approved without it: the patient gets a plain Spanish 'try again' (503),
 * nothing is created, and the same registration goes through once the search has finished.
 */
const { kyc, h, p } = useCaseApps();
const SUPPLEMENTARY = { tipoSangre: 'O+', direccion: '', departamento: '11', ciudad_id: '1101' };
const PHONE = '0981000044';

const registered = async () =>
  (await h.t.ctx.db.query('SELECT 1 FROM patients WHERE celular = $1', [PHONE])).rows.length;

describe('the duplicate search still running at register', () => {
  it.each(['before the transaction', 'inside the transaction'])(
    '%s: 503 with a Spanish try again, no patient, then registered on the next try',
    async (where) => {
      const reg = await p.registration(PHONE, evidence({ idData: ID_DATA, reasons: [] }));
      kyc.stages.set(reg.sessionId, { stage: 'documentRead', idData: ID_DATA });
      let pending = true;
      const duplicateOf = kyc.duplicateOf.bind(kyc);
      Object.assign(kyc, {
        settleDuplicates: async () => {
          if (pending && where === 'before the transaction') throw new DuplicateCheckWaiting();
        },
        duplicateOf: (...args: Parameters<typeof duplicateOf>) => {
          if (pending && where === 'inside the transaction') throw new DuplicateCheckWaiting();
          return duplicateOf(...args);
        },
      });
      try {
        const body = {
          registrationToken: reg.token,
          phone: PHONE,
          email: null,
          pin: '482915',
          sessionId: reg.sessionId,
          supplementaryData: SUPPLEMENTARY,
        };
        const first = await p.post(onboardingPaths.register, body);
        expect(first.statusCode).toBe(503);
        expect(first.json().message).toMatch(/Todavía estamos revisando tu verificación/);
        expect(await registered()).toBe(0);
        expect(kyc.used.has(reg.sessionId)).toBe(false);

        pending = false;
        const again = await p.post(onboardingPaths.register, body);
        expect(again.statusCode).toBe(200);
        expect(await registered()).toBe(1);
      } finally {
        Object.assign(kyc, { settleDuplicates: undefined, duplicateOf });
      }
    },
  );
});

import { describe, expect, it } from 'vitest';
import { sessionResponse } from '../../contract/session';
import { sessionResponseCheck } from '../../contract/session.constants';

/** The zod-free check of the session answer (the login page's first load) and the zod schema agree. */
const ANSWERS: unknown[] = [
  { authenticated: false },
  { authenticated: false, patient: { nombre: 'ANA', apellido: 'ROJAS' } },
  { authenticated: true, patient: { nombre: 'ANA', apellido: 'ROJAS' }, expiresAt: '2026-01-01' },
  {
    authenticated: true,
    patient: { nombre: 'ANA', apellido: 'ROJAS', documento: '123' },
    expiresAt: '2026-01-01',
    extra: 1,
  },
  { authenticated: true, patient: { nombre: 'ANA' }, expiresAt: '2026-01-01' },
  { authenticated: true, patient: { nombre: 'ANA', apellido: 7 }, expiresAt: '2026-01-01' },
  { authenticated: true, patient: null, expiresAt: '2026-01-01' },
  { authenticated: true, patient: ['ANA', 'ROJAS'], expiresAt: '2026-01-01' },
  { authenticated: true, patient: { nombre: 'ANA', apellido: 'ROJAS' } },
  { authenticated: 'true', patient: { nombre: 'ANA', apellido: 'ROJAS' }, expiresAt: 'x' },
  { authenticated: 1 },
  {},
  [],
  null,
  'authenticated',
  42,
  undefined,
];

describe('the session answer checked without zod', () => {
  it.each(ANSWERS.map((a) => [JSON.stringify(a) ?? 'undefined', a]))(
    'answers %s as the zod schema does',
    (_name, answer) => {
      const zod = sessionResponse.safeParse(answer);
      const plain = sessionResponseCheck.safeParse(answer);
      expect(plain.success).toBe(zod.success);
      if (zod.success && plain.success) expect(plain.data).toEqual(zod.data);
    },
  );

  it('accepts a signed-in answer and a signed-out one, and refuses a half one', () => {
    expect(ANSWERS.filter((a) => sessionResponseCheck.safeParse(a).success)).toHaveLength(4);
  });
});

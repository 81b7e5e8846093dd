/**
 * One writer per table (issue 27 part 4): the statements that write `patients` live in
 * server/patients/ only; `login_guards` is written in server/login/ only (others call
 * clearLoginGuard); `otp_codes` in server/security/otp.ts only (the codes and their housekeeping).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = path.resolve(__dirname, '../../server');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'migrations' ? [] : sources(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/** The files with a statement that writes `table`. */
function writersOf(table: string): string[] {
  const write = new RegExp(`\\b(INSERT\\s+INTO|UPDATE|DELETE\\s+FROM)\\s+${table}\\b`, 'i');
  return sources(SERVER)
    .filter((file) => write.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(SERVER, file));
}

describe('one writer per table', () => {
  it('patients: server/patients/ only', () => {
    expect(writersOf('patients')).toEqual(['patients/service.ts']);
  });
  it('login_guards: server/login/ only (clearLoginGuard for everyone else)', () => {
    expect(writersOf('login_guards')).toEqual(['login/service.ts']);
  });
  it('otp_codes: server/security/otp.ts only, housekeeping included', () => {
    expect(writersOf('otp_codes')).toEqual(['security/otp.ts']);
  });
  it.each([
    'operators',
    'operator_credentials',
    'operator_enrolments',
    'operator_sessions',
    'operator_challenges',
  ])('%s: server/operators/ only (issue 30)', (table) => {
    const writers = writersOf(table);
    expect(writers.length).toBeGreaterThan(0);
    expect(writers.filter((file) => !file.startsWith('operators/'))).toEqual([]);
  });
  it("kyc_evidence: the identity engine's store only (issue 30)", () => {
    expect(writersOf('kyc_evidence')).toEqual(['identity/store/evidence.ts']);
  });
  it('cases: server/cases/store.ts only; case_audit: server/cases/audit.ts only (append-only)', () => {
    expect(writersOf('cases')).toEqual(['cases/store.ts']);
    expect(writersOf('case_audit')).toEqual(['cases/audit.ts']);
  });
  it('patient_access_log: server/my-data/access-log.ts only (append-only, issue 45)', () => {
    expect(writersOf('patient_access_log')).toEqual(['my-data/access-log.ts']);
  });
});

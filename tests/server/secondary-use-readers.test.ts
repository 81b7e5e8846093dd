/**
 * Secondary uses (issue 45 item 7): a patient may opt out of any use of their data beyond their
 * own care, and whatever the service adds later must honour it. The seam: every server file that
 * reads a table holding patient data is either part of the patient's care (the areas below, each
 * with its reason) or reads through the view `secondary_use_allowed` (migration 036), which leaves
 * the opted-out patients out. A new reader elsewhere (a research export, a new report) fails here
 * until it does one or the other, and a reviewer sees the reason it gives.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVER = path.resolve(__dirname, '../../server');

/** Tables that name a patient or hold their data. */
const PATIENT_TABLES = [
  'patients',
  'sessions',
  'face_enrollments',
  'onboarding_registrations',
  'registration_drafts',
  'patient_access_log',
  'patient_secondary_use',
  'my_data_downloads',
  'account_deletions',
  'cases',
  'case_audit',
  'kyc_sessions',
  'kyc_evidence',
  'face_auth_sessions',
  'face_duplicate_checks',
  'face_enrollment_deletions',
  'liveness_frames',
  'recovery_grants',
  'login_guards',
  'phone_verifications',
  'otp_codes',
  'sms_outbox',
  'sms_send_log',
];
const READS = new RegExp(`\\b(FROM|JOIN)\\s+(${PATIENT_TABLES.join('|')})\\b`, 'i');

/** The patient's own care and account: these read patient data for the patient. */
const CARE: Record<string, string> = {
  'cases/': 'verifying the patient’s identity (assisted verification, the back office)',
  'face-login/': 'the patient’s login with their face',
  'identity/': 'the identity checks of the patient’s registration and login',
  'login/': 'the patient’s login',
  'my-data/': 'the patient’s own rights (Mis datos)',
  'onboarding/': 'the patient’s registration',
  'recovery/': 'the patient’s PIN recovery',
  'session/': 'the patient’s session',
  'security/': 'the one-time codes and limits that guard the patient’s phone and login',
  'sms/': 'the SMS sent to the patient',
  'patients/': 'the patient’s account',
  'main.ts': 'the demo patient at start (development)',
  // Journey insight reads no patient data for itself: these count rows, grouped by kind, with no
  // patient id, name or time of one patient leaving the query (docs/insight.md).
  'insight/report.ts': 'the count of cases a person approved, no personal data',
  'insight/report-cases.ts': 'counts of cases by trigger, kind and outcome, no personal data',
  'insight/report-requests.ts': 'counts of the patients’ requests by kind, no personal data',
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'migrations' ? [] : sources(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/** A reader of patient data that is not care and does not honour the opt-out. */
function ignoresOptOut(file: string, text: string): boolean {
  if (!READS.test(text)) return false;
  if (Object.keys(CARE).some((care) => file === care || file.startsWith(care))) return false;
  return !/\bsecondary_use_allowed\b/.test(text);
}

describe('secondary uses: every reader of patient data is care, or honours the opt-out', () => {
  it('no server file reads patient data for anything else without secondary_use_allowed', () => {
    const offenders = sources(SERVER)
      .map((file) => ({ file: path.relative(SERVER, file), text: readFileSync(file, 'utf8') }))
      .filter(({ file, text }) => ignoresOptOut(file, text))
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
  });

  it('would catch a new reader: a research export, an insight file reading patients', () => {
    const naive = 'SELECT fecha_nacimiento, sexo FROM patients';
    expect(ignoresOptOut('research/export.ts', naive)).toBe(true);
    expect(ignoresOptOut('insight/age-report.ts', `${naive} p JOIN sessions s ON true`)).toBe(true);
    expect(
      ignoresOptOut(
        'research/export.ts',
        `${naive} WHERE id IN (SELECT patient_id FROM secondary_use_allowed)`,
      ),
    ).toBe(false);
    expect(ignoresOptOut('login/service.ts', naive)).toBe(false);
    // the tables beyond patients and cases that hold a patient's face, phone or document
    expect(ignoresOptOut('research/export.ts', 'SELECT thumb FROM liveness_frames')).toBe(true);
    expect(ignoresOptOut('research/export.ts', 'SELECT celular FROM sms_outbox')).toBe(true);
    expect(ignoresOptOut('research/export.ts', 'SELECT * FROM face_auth_sessions')).toBe(true);
  });
});

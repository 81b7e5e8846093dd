import {
  splitFullName,
  type IdData,
  type RegistrationResume,
  type SupplementaryData,
} from '../../contract/onboarding';
import {
  isPinFromOwnData,
  PIN_FROM_OWN_DATA,
  pinOwnDataOf,
  pinsFromOwnData,
} from '../../contract/pin';
import { cardDateIso } from '../../contract/card-date';
import type { RegisterWait } from '../../contract/cases';
import { paraguayDay } from '../../contract/paraguay-time';
import type { AppContext } from '../context';
import { isUniqueViolation, type Db } from '../db/client';
import { cityBelongsTo } from '../geo/routes';
import { insertRegisteredPatient } from '../patients/service';
import { HttpError } from '../http/errors';
import { clientSmsCheck, issueOtp, OtpDeliveryError, verifyOtp } from '../security/otp';
import { assertWithinLimits, consumeLimits, recordEvent } from '../security/rate-limits';
import { DuplicateCheckWaiting, type KycStore } from './kyc-store';
import { draftOf, type Draft } from './drafts';
import { proveMobile } from './registration';
import { onboardingMessages as m } from './messages';

const PURPOSE = 'onboarding';
const HOUR = 3_600_000;

export type SendOutcome =
  { kind: 'sent'; resendAfterMs: number } | { kind: 'exists' } | { kind: 'failed' };

async function phoneHasPatient(db: Db, celular: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM patients WHERE celular = $1', [celular]);
  return rows.length > 0;
}

/**
 * Start and resend: a phone that already has a complete patient record is told so (docs/decisions.md);
 * otherwise a new code is sent. Answers that reveal a registered phone spend the client's budget
 * too, so the per-client cap also bounds probing.
 */
export async function sendOnboardingCode(
  ctx: AppContext,
  input: { celular: string; clientIp: string },
): Promise<SendOutcome> {
  const now = ctx.clock.now();
  const clientCheck = clientSmsCheck(ctx.onboarding.otp, input.clientIp);
  await assertWithinLimits(ctx.db, [clientCheck], now);
  if (await phoneHasPatient(ctx.db, input.celular)) {
    await recordEvent(ctx.db, clientCheck.bucket, clientCheck.key, now);
    return { kind: 'exists' };
  }
  try {
    const { resendAfterMs } = await issueOtp(ctx, { ...input, purpose: PURPOSE });
    return { kind: 'sent', resendAfterMs };
  } catch (err) {
    if (err instanceof OtpDeliveryError) return { kind: 'failed' };
    throw err;
  }
}

/**
 * Checks the code; a right one proves the mobile: its registration continues where it was, or a
 * new one starts (registration.ts). Null for a wrong code.
 */
export async function validateOnboardingCode(
  ctx: AppContext,
  input: { celular: string; otp: string; clientIp: string },
): Promise<RegistrationResume | null> {
  const ok = await verifyOtp(ctx, { ...input, purpose: PURPOSE });
  if (!ok) return null;
  return proveMobile(ctx, input.celular);
}

type RegisterInput = {
  /** the registration's device token (validate-otp or the SMS link) */
  token: string;
  celular: string;
  email: string | null;
  /** absent when the registration resumed on another page: the kept hash is used */
  pin: string | null;
  sessionId: string;
  supplementary: Required<SupplementaryData>;
};

type RegisterOutcome =
  { kind: 'registered'; patientId: string; repeated: boolean } | { kind: 'exists' };

/** The patient a KYC session registered, when it registered this phone (a double submit). */
async function registrationOf(
  db: Db,
  sessionId: string,
  celular: string,
): Promise<string | null | 'other'> {
  const { rows } = await db.query<{ patient_id: string; celular: string | null }>(
    `SELECT r.patient_id::text AS patient_id, p.celular
       FROM onboarding_registrations r JOIN patients p ON p.id = r.patient_id
      WHERE r.session_id = $1`,
    [sessionId],
  );
  const row = rows[0];
  if (!row) return null;
  return row.celular === celular ? row.patient_id : 'other';
}

/**
 * The same success when this session already registered this phone (a double submit answered
 * after the first one won), else the given outcome.
 */
async function repeatedOr(
  db: Db,
  input: Pick<RegisterInput, 'sessionId' | 'celular'>,
  otherwise: RegisterOutcome,
): Promise<RegisterOutcome> {
  const winner = await registrationOf(db, input.sessionId, input.celular);
  if (winner === 'other') return { kind: 'exists' };
  return winner ? { kind: 'registered', patientId: winner, repeated: true } : otherwise;
}

/**
 * The PIN's hash for the new patient, once the card is read: a PIN made from its birth date or
 * number is refused (contract/pin.ts). The PIN sent with register is checked directly. A kept hash
 * (the registration resumed on another page) is checked against every PIN the card's data gives,
 * one Argon2id verification each: at most `pinChecksPerRegistrationHour` a registration, and a hash
 * found to be made from the card is forgotten, so the next register needs a new PIN.
 */
async function pinHashFor(
  ctx: AppContext,
  draft: Draft,
  pin: string | null,
  id: IdData,
): Promise<string> {
  const own = pinOwnDataOf(id);
  const refused = () => new HttpError(400, m.pinFromOwnData, {}, PIN_FROM_OWN_DATA);
  if (pin !== null) {
    if (isPinFromOwnData(pin, own)) throw refused();
    return ctx.pins.hash(pin);
  }
  if (!draft.pin_hash) throw new HttpError(400, m.pinFirst, {}, PIN_FROM_OWN_DATA);
  await consumeLimits(
    ctx.db,
    [
      {
        bucket: 'registration_pin_check',
        key: draft.id,
        limits: [{ max: ctx.onboarding.registration.pinChecksPerRegistrationHour, windowMs: HOUR }],
      },
    ],
    ctx.clock.now(),
  );
  for (const candidate of pinsFromOwnData(own))
    if (await ctx.pins.verify(draft.pin_hash, candidate)) {
      await ctx.db.query('UPDATE registration_drafts SET pin_hash = NULL WHERE id = $1', [
        draft.id,
      ]);
      throw refused();
    }
  return draft.pin_hash;
}

/** The KYC session was used by a concurrent registration: roll back and look at the winner. */
class KycTaken extends Error {}

/** The face is an enrolled patient's with another document (issue 44 item 3): roll back, open a case. */
class DuplicateFace extends Error {
  constructor(readonly found: { patientId: string; similarity: number; threshold: number }) {
    super('possible duplicate');
  }
}

/** register's reason codes (issue 44 item 3): a person checks a possible duplicate; recover the PIN. */
export const POSSIBLE_DUPLICATE: RegisterWait = 'possible_duplicate';
const CASE_OPEN: RegisterWait = 'case_open';
export const RECOVER_PIN = 'recover_pin';

/**
 * Creates the patient from the KYC session the server completed (its stored identity, never the
 * browser's copy), for the registration the mobile's SMS proof opened (registration.ts), with the
 * PIN hashed as for login (or the hash kept at step 2), the supplementary data and the enrolled
 * face. The same session registered twice answers the same success.
 */
export async function registerPatient(
  ctx: AppContext,
  kyc: KycStore | null,
  input: RegisterInput,
): Promise<RegisterOutcome> {
  const { db } = ctx;
  // The registration the mobile's proof opened: this phone, and the KYC session it started.
  const draft = await draftOf(ctx, input.token, { finished: true });
  // Finished: by this session (a double submit answers the same success) or not.
  if (draft.completed_at) return repeatedOr(db, input, { kind: 'exists' });
  if (draft.celular !== input.celular) throw new HttpError(403, m.phoneOfAnother);
  if (draft.kyc_session_id !== input.sessionId) throw new HttpError(403, m.sessionOfAnother);
  // A person is deciding this registration's identity (issue 30): not before the decision.
  if (await ctx.caseReader.hasOpen(draft.id)) throw new HttpError(409, m.caseOpen, {}, CASE_OPEN);

  if (!kyc) throw new HttpError(503, m.kycUnavailable);
  const completed = await kyc.getCompletedKyc(input.sessionId);
  if (!completed) throw new HttpError(400, m.kycIncomplete);
  const id = completed.idData;
  const documento = id.DocumentNumber.replace(/\D/g, '');
  if (!documento) throw new HttpError(400, m.kycIncomplete);
  const taken = await db.query<{ id: string; same_document: boolean }>(
    `SELECT id::text AS id, numero_documento = $1 AS same_document FROM patients
      WHERE numero_documento = $1 OR celular = $2`,
    [documento, input.celular],
  );
  if (taken.rows.length) {
    const outcome = await repeatedOr(db, input, { kind: 'exists' });
    // The same face with the same document (issue 44 item 3): a patient who lost access.
    const own = taken.rows.find((r) => r.same_document);
    if (outcome.kind === 'exists' && own && (await kyc.isEnrolledFace(own.id, completed.embedding)))
      throw new HttpError(409, m.recoverPin, {}, RECOVER_PIN);
    return outcome;
  }

  const { departamento, ciudad_id, tipoSangre, direccion } = input.supplementary;
  if (!(await cityBelongsTo(db, ciudad_id, departamento)))
    throw new HttpError(400, m.cityNotInDepartment);

  // Last of the checks: the costly one (a kept hash against the card's data).
  const pinHash = await pinHashFor(ctx, draft, input.pin, id);
  const now = new Date(ctx.clock.now());

  const { nombre, apellido } = splitFullName(id.FullName);
  // Read before the transaction: on PGlite the transaction holds the only connection.
  const notDuplicates = await ctx.caseReader.approvedDuplicatesOf(draft.id);
  try {
    // The session's duplicate search finished (waited for, or run now), outside the transaction.
    await kyc.settleDuplicates?.(input.sessionId, completed.embedding, notDuplicates);
    const patientId = await db.transaction(async (tx) => {
      // Issue 44 item 3: an enrolled face with another document goes to a supervisor, never refused.
      const duplicate = await kyc.duplicateOf(
        input.sessionId,
        completed.embedding,
        notDuplicates,
        tx,
      );
      if (duplicate) throw new DuplicateFace(duplicate);
      const created = await insertRegisteredPatient(
        tx,
        {
          numero_documento: documento,
          nombre,
          apellido,
          celular: input.celular,
          email: input.email ?? draft.email,
          fecha_nacimiento: cardDateIso(id.DateOfBirth),
          sexo: id.Gender || null,
          nacionalidad: id.Nationality || null,
          estado_civil: id.MaritalStatus || null,
          tipo_sangre: tipoSangre === 'No sé' ? null : tipoSangre,
          direccion: direccion || null,
          ciudad_id,
          pin_hash: pinHash,
          // What the PIN step accepted (drafts.ts savePin), kept on the patient: the draft goes.
          terms_accepted_at: draft.terms_accepted_at,
          terms_version: draft.terms_version,
          privacy_version: draft.privacy_version,
        },
        now,
      );
      if (!created) return null;
      if (!(await kyc.consumeKyc(input.sessionId, tx))) throw new KycTaken();
      await tx.query(
        'INSERT INTO onboarding_registrations (session_id, patient_id, created_at) VALUES ($1, $2, $3)',
        [input.sessionId, created, now],
      );
      // The registration is over: its links die (expired now, kept so that a real link opened
      // again says the registration is complete: issue 29 item 16); its devices may still read
      // that it finished.
      await tx.query(
        'UPDATE registration_drafts SET completed_at = $2, updated_at = $2 WHERE id = $1',
        [draft.id, now],
      );
      await tx.query(
        `UPDATE registration_tokens SET expires_at = LEAST(expires_at, $2)
          WHERE draft_id = $1 AND kind = 'link'`,
        [draft.id, now],
      );
      await kyc.enrollFace(created, completed.embedding, tx);
      return created;
    });
    if (patientId) return { kind: 'registered', patientId, repeated: false };
  } catch (err) {
    if (err instanceof DuplicateFace) {
      const opened = await ctx.caseReader.openDuplicate({
        draftId: draft.id,
        sessionId: input.sessionId,
        ...err.found,
      });
      throw new HttpError(
        409,
        m.duplicateCase(paraguayDay(new Date(opened.expectedBy))),
        {},
        POSSIBLE_DUPLICATE,
      );
    }
    // Not checked in time: never registered unchecked; the patient tries again, nothing is lost.
    if (err instanceof DuplicateCheckWaiting) throw new HttpError(503, m.duplicateCheckWaiting);
    if (!isUniqueViolation(err) && !(err instanceof KycTaken)) throw err;
  }
  // Lost a race: either a double submit of this session (same success) or another registration.
  if (
    !(await registrationOf(db, input.sessionId, input.celular)) &&
    !(await kyc.getCompletedKyc(input.sessionId))
  )
    throw new HttpError(400, m.kycIncomplete);
  return repeatedOr(db, input, { kind: 'exists' });
}

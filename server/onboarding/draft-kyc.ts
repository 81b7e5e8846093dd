import { isUniqueViolation } from '../db/client';
import { HttpError } from '../http/errors';
import { draftOf, type Draft, type RegistrationDeps } from './drafts';
import type { KycProgress } from './kyc-store';
import { onboardingMessages as m } from './messages';

/**
 * The registration's hand-off to the identity engine (step 4): the KYC session bound to it, how
 * far that session got, and whether the card it read is a patient's already.
 */

/** What the KYC session of a registration shows, 'started' when it has none. */
export async function kycProgressOf(deps: RegistrationDeps, draft: Draft): Promise<KycProgress> {
  if (!draft.kyc_session_id || !deps.kyc) return { stage: 'started' };
  return deps.kyc.progressOf(draft.kyc_session_id);
}

/** How many replaced KYC sessions a registration remembers for its case. */
const EARLIER_SESSIONS = 5;

/** Step 4 started a KYC session: it belongs to this registration (and to no other). */
export async function bindKycSession(
  deps: RegistrationDeps,
  input: { token: string; sessionId: string },
): Promise<void> {
  const draft = await draftOf(deps, input.token);
  if (!draft.pin_hash) throw new HttpError(409, m.pinFirst);
  try {
    // The session it replaces ('Reintentar' after a refusal) is remembered, so that a case opened
    // later carries that attempt's evidence too (issue 43 item 2); the last EARLIER_SESSIONS.
    await deps.db.query(
      `UPDATE registration_drafts SET kyc_session_id = $2, updated_at = $3,
              earlier_kyc_sessions = CASE
                WHEN kyc_session_id IS NULL OR kyc_session_id = $2 THEN earlier_kyc_sessions
                ELSE (earlier_kyc_sessions || kyc_session_id)[
                  greatest(1, cardinality(earlier_kyc_sessions) + 2 - $4):]
              END
        WHERE id = $1`,
      [draft.id, input.sessionId, new Date(deps.clock.now()), EARLIER_SESSIONS],
    );
  } catch (err) {
    if (isUniqueViolation(err)) throw new HttpError(409, m.sessionOfAnother);
    throw err;
  }
}

/**
 * The card this registration's own KYC session read belongs to a patient already (issue 29 item
 * 10): said as soon as the card is read, not after 'Finalizar'. Only for the session bound to this
 * live registration and only once it read a card (the scan needs the patient's face and the card
 * itself), so it is no oracle on document numbers.
 */
export async function isDocumentRegistered(
  deps: RegistrationDeps,
  input: { token: string; sessionId: string },
): Promise<boolean> {
  const draft = await draftOf(deps, input.token);
  if (draft.kyc_session_id !== input.sessionId) throw new HttpError(403, m.sessionOfAnother);
  if (!deps.kyc) throw new HttpError(503, m.kycUnavailable);
  const completed = await deps.kyc.getCompletedKyc(input.sessionId);
  const documento = completed?.idData.DocumentNumber.replace(/\D/g, '');
  if (!documento) throw new HttpError(409, m.kycIncomplete);
  const { rows } = await deps.db.query('SELECT 1 FROM patients WHERE numero_documento = $1', [
    documento,
  ]);
  return rows.length > 0;
}

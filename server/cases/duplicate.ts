import { randomUUID } from 'node:crypto';
import type { CaseStatus } from '../../contract/cases';
import type { DuplicateOf } from '../../contract/operators';
import type { AppContext } from '../context';
import { holdRegistrations } from '../onboarding/draft-case';
import type { DuplicateFound } from '../onboarding/case-reader';
import { audit } from './audit';
import { caseKyc } from './kyc';
import { caseEvidence, facesOf, registrationEvidence } from './patient';
import { caseSealer } from './seal';
import { latestCaseOf, toCaseStatus } from './status';
import { insertCase } from './store';

/**
 * 'Posible duplicado' (issue 44 item 3): registration found the verified face enrolled for another
 * document and opens this case itself (never the patient, never an automatic refusal). It holds
 * both records' evidence for a supervisor: the new registration's selfie, card and fields (as any
 * case) and, sealed in `duplicate`, the enrolled patient's document number, name and registration
 * date (enrolments keep no photo), with the exact similarity and the threshold. Only a supervisor
 * claims and decides it (store.ts claimOldest, decision.ts): approve, the registration goes on as a
 * distinct person (the next register leaves that patient out); reject ('duplicate_person'), the
 * patient is told to verify at a health centre or recover their PIN. Its patient sees a person's
 * review and nothing of the other patient (status.ts toCaseStatus).
 */

/** What the supervisor reads of the enrolled patient (sealed on the case). */
type EnrolledRecord = Omit<DuplicateOf, 'similarity' | 'threshold'>;

export async function openDuplicateCase(
  ctx: AppContext,
  found: DuplicateFound,
): Promise<CaseStatus> {
  const { draftId, sessionId } = found;
  const now = new Date(ctx.clock.now());
  const sealer = caseSealer(ctx);
  // Read before the transaction: on PGlite the transaction holds the only connection.
  const { evidence, sessions } = await registrationEvidence(ctx, draftId, sessionId);
  const { rows: drafts } = await ctx.db.query<{ celular: string }>(
    'SELECT celular FROM registration_drafts WHERE id = $1',
    [draftId],
  );
  const { rows: patients } = await ctx.db.query<{
    numero_documento: string;
    nombre: string;
    apellido: string;
    created_at: Date;
  }>('SELECT numero_documento, nombre, apellido, created_at FROM patients WHERE id = $1', [
    found.patientId,
  ]);
  const enrolled = patients[0];
  const record: EnrolledRecord | null = enrolled
    ? {
        documento: enrolled.numero_documento,
        nombre: `${enrolled.apellido} ${enrolled.nombre}`.trim(),
        registeredAt: new Date(enrolled.created_at).toISOString(),
      }
    : null;
  const holdUntil = new Date(
    now.getTime() + ctx.cases.reviewMs + ctx.onboarding.registration.resumeMs,
  );

  const row = await ctx.db.transaction(async (tx) => {
    await tx.query('SELECT 1 FROM registration_drafts WHERE id = $1 FOR UPDATE', [draftId]);
    // One open case per registration: a double submit answers the case it opened.
    const latest = await latestCaseOf(tx, draftId);
    if (latest?.status === 'open') return latest;
    const id = randomUUID();
    const e = evidence;
    const faces = await facesOf(tx, sealer, draftId, sessionId, e);
    const inserted = await insertCase(tx, {
      id,
      draftId,
      celular: drafts[0]?.celular ?? '',
      kind: 'duplicate',
      trigger: 'possible_duplicate',
      step: 'selfie',
      sessionId,
      openedAt: now,
      expectedBy: new Date(now.getTime() + ctx.cases.reviewMs),
      code: null,
      ...caseEvidence(sealer, id, e, faces, null),
      duplicate: {
        patientId: found.patientId,
        similarity: found.similarity,
        threshold: found.threshold,
        sealed: sealer.sealJson(id, 'duplicate', record),
      },
    });
    // The case holds the evidence sealed: the sessions keep no plaintext copy (issue 42, L4).
    for (const s of sessions) await caseKyc(ctx).evidenceCopied(s, tx);
    await holdRegistrations(tx, [draftId], holdUntil);
    await audit(tx, {
      caseId: id,
      actor: null,
      action: 'open',
      // Scores only: never who the other patient is (the log outlives the case's data).
      detail: {
        kind: 'duplicate',
        trigger: 'possible_duplicate',
        step: 'selfie',
        supervised: true,
        similarity: found.similarity,
        threshold: found.threshold,
        evidence: e
          ? (['selfie', 'portrait', 'front', 'back'] as const).filter((p) => e[p] !== null)
          : [],
      },
      at: now,
    });
    return inserted;
  });
  return toCaseStatus(row);
}

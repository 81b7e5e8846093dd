import { randomInt, randomUUID } from 'node:crypto';
import { paraguayDay } from '../../contract/paraguay-time';
import {
  CENTRE_CODE_ALPHABET,
  CENTRE_CODE_LENGTH,
  formatCentreCode,
  SUPERVISED_TRIGGERS,
  type CaseKind,
  type CaseStatus,
  type CaseStep,
  type CaseTrigger,
  type PatientClaim,
} from '../../contract/cases';
import type { AppContext } from '../context';
import type { Db } from '../db/client';
import { HttpError } from '../http/errors';
import { earlierKycSessionsOf, holdRegistrations } from '../onboarding/draft-case';
import { draftOf } from '../onboarding/drafts';
import { sendLogged } from '../sms/send-log';
import { caseCodeSmsText } from '../sms/sender';
import { audit } from './audit';
import { caseKyc, type KycEvidence } from './kyc';
import { caseMessages as m } from './messages';
import { caseSealer } from './seal';
import { latestCaseOf, toCaseStatus, type CaseRow } from './status';
import { insertCase, makeCentreCase, type NewCase } from './store';

/** A code from the alphabet read aloud without doubt, crypto random, not in use. */
async function newCentreCode(tx: Db): Promise<string> {
  for (;;) {
    let code = '';
    for (let i = 0; i < CENTRE_CODE_LENGTH; i++)
      code += CENTRE_CODE_ALPHABET[randomInt(CENTRE_CODE_ALPHABET.length)];
    const { rows } = await tx.query('SELECT 1 FROM cases WHERE code = $1', [code]);
    if (!rows.length) return code;
  }
}

type OpenInput = {
  token: string;
  kind: CaseKind;
  trigger: CaseTrigger;
  step: CaseStep;
  clientIp: string;
  /** the field the patient says was read wrong (a review from the review of their data) */
  claim?: PatientClaim | undefined;
};

const refusal = (message: string, reason: string) => new HttpError(409, message, {}, reason);

/**
 * Opens a case for the registration (or answers the one already open: one per registration, two
 * opens at once give one case), with what its KYC session captured, sealed. A review case nobody
 * holds may become a centro case; a rejected review case may open a centro case. A centro case
 * gets a code (and an SMS with the code and its deadline only). Opening keeps the registration
 * alive until the case can be decided (CASES_CENTRE_DAYS) plus the resume window.
 */
export async function openCase(
  ctx: AppContext,
  input: OpenInput,
): Promise<{ case: CaseStatus; message?: string }> {
  const draft = await draftOf(ctx, input.token);
  if (!draft.pin_hash) throw new HttpError(409, m.pinFirst);
  // A possible duplicate is registration's finding (issue 44 item 3), never the patient's to name.
  if (input.trigger === 'possible_duplicate') throw new HttpError(400, m.notPatientTrigger);
  const sessionId = draft.kyc_session_id;
  // Read before the transaction: on PGlite the transaction holds the only connection. The
  // registration's earlier sessions ('Reintentar' after a refusal) count too (issue 43 item 2).
  const { evidence, sessions } = await registrationEvidence(ctx, draft.id, sessionId);
  const now = new Date(ctx.clock.now());
  const settings = ctx.cases;
  const holdUntil = new Date(
    now.getTime() + settings.centreMs + ctx.onboarding.registration.resumeMs,
  );
  const idleCutoff = new Date(now.getTime() - settings.claimIdleMs);
  const sealer = caseSealer(ctx);

  const outcome = await ctx.db.transaction(async (tx) => {
    // Opens of one registration are serialised on its row (PostgreSQL; PGlite has one connection).
    await tx.query('SELECT 1 FROM registration_drafts WHERE id = $1 FOR UPDATE', [draft.id]);
    const latest = await latestCaseOf(tx, draft.id);
    if (latest?.status === 'open') {
      // A supervisor's 'posible duplicado' stays what it is until decided.
      if (latest.kind === input.kind || latest.kind === 'centro' || latest.kind === 'duplicate')
        return { row: latest, coded: false };
      // A review case becomes a centro case only while nobody holds it or approved it.
      const code = await newCentreCode(tx);
      const expires = new Date(now.getTime() + settings.centreMs);
      const row = await makeCentreCase(tx, { id: latest.id, code, expires, idleCutoff });
      if (!row) throw refusal(m.caseTaken, 'case_taken');
      await holdRegistrations(tx, [draft.id], holdUntil);
      await audit(tx, {
        caseId: row.id,
        actor: null,
        action: 'open',
        detail: { kind: 'centro', from: 'review' },
        at: now,
      });
      return { row, coded: true };
    }
    if (latest?.status === 'approved') throw refusal(m.caseDecided, 'case_decided');
    if (latest?.status === 'rejected' && input.kind === 'review')
      throw refusal(m.reviewAfterReject, 'case_decided');
    const row = await openNewCase(tx, {
      draftId: draft.id,
      celular: draft.celular,
      input,
      sessionId,
      evidence,
      faces: await facesOf(tx, sealer, draft.id, sessionId, evidence),
      now,
      reviewMs: settings.reviewMs,
      centreMs: settings.centreMs,
      sealer,
    });
    // The case holds the evidence sealed: the session keeps no plaintext copy (issue 42, L4).
    for (const id of sessions) await caseKyc(ctx).evidenceCopied(id, tx);
    await holdRegistrations(tx, [draft.id], holdUntil);
    return { row, coded: row.kind === 'centro' };
  });

  const status = toCaseStatus(outcome.row);
  if (!outcome.coded || !outcome.row.code) return { case: status };
  const delivery = await sendLogged(
    ctx,
    {
      to: draft.celular,
      purpose: 'case_code',
      body: caseCodeSmsText(
        ctx.onboarding.sms.serviceName,
        formatCentreCode(outcome.row.code),
        paraguayDay(new Date(outcome.row.expected_by)),
      ),
    },
    { clientIp: input.clientIp, countedEvents: [], undo: async () => {} },
  );
  // The code stays valid: the patient reads it on the screen.
  return delivery.status === 'refused'
    ? { case: status, message: m.codeSmsFailed }
    : { case: status };
}

/**
 * What the registration's KYC sessions captured, for its case: the current session's and those it
 * replaced ('Reintentar' after a refusal starts a new one; issue 43 item 2), and the sessions read.
 */
export async function registrationEvidence(
  ctx: AppContext,
  draftId: string,
  sessionId: string | null,
): Promise<{ evidence: KycEvidence | null; sessions: string[] }> {
  const ids = [
    ...(sessionId ? [sessionId] : []),
    ...(await earlierKycSessionsOf(ctx.db, draftId)).filter((id) => id !== sessionId),
  ];
  const found: Array<{ id: string; e: KycEvidence }> = [];
  for (const id of ids) {
    const e = await caseKyc(ctx).evidenceOf(id);
    if (e) found.push({ id, e });
  }
  return { evidence: mergeEvidence(found.map((f) => f.e)), sessions: found.map((f) => f.id) };
}

/**
 * The evidence of several attempts (newest first) as one case shows it: the newest attempt that
 * reached the card, whole (its selfie, card, fields and face score belong together), else the
 * newest with a selfie; a part it lacks from the newest attempt that has it; the refusals of every
 * attempt, oldest first (the last 20), their attempts and signals added up.
 */
export function mergeEvidence(all: KycEvidence[]): KycEvidence | null {
  const [newest] = all;
  if (!newest || all.length === 1) return newest ?? null;
  const base =
    all.find((e) => e.front || e.back || e.idData) ?? all.find((e) => e.selfie) ?? newest;
  const withSelfie = base.selfie ? base : (all.find((e) => e.selfie) ?? base);
  const signals: Record<string, number> = {};
  for (const e of all)
    for (const [k, n] of Object.entries(e.signals)) signals[k] = (signals[k] ?? 0) + n;
  return {
    ...base,
    selfie: withSelfie.selfie,
    selfieEmbedding: withSelfie.selfieEmbedding,
    reasons: [...all]
      .reverse()
      .flatMap((e) => e.reasons)
      .slice(-20),
    attempts: {
      liveness: all.reduce((n, e) => n + e.attempts.liveness, 0),
      scans: all.reduce((n, e) => n + e.attempts.scans, 0),
    },
    signals,
  };
}

type Faces = { selfie: number[] | null; portrait: number[] | null };

/**
 * The faces' descriptions a new case keeps: the session's evidence's, else (they left the session
 * when its first case copied them: issue 42, L4) those of the registration's newest earlier case of
 * the same session, e.g. a health-centre case after a rejected review.
 */
export async function facesOf(
  tx: Db,
  sealer: ReturnType<typeof caseSealer>,
  draftId: string,
  sessionId: string | null,
  e: KycEvidence | null,
): Promise<Faces> {
  const faces = { selfie: e?.selfieEmbedding ?? null, portrait: e?.portraitEmbedding ?? null };
  if (!sessionId || (faces.selfie && faces.portrait)) return faces;
  const { rows } = await tx.query<{
    id: string;
    selfie_embedding: Uint8Array | null;
    portrait_embedding: Uint8Array | null;
  }>(
    `SELECT id::text AS id, selfie_embedding, portrait_embedding FROM cases
      WHERE draft_id = $1 AND kyc_session_id = $2
        AND (selfie_embedding IS NOT NULL OR portrait_embedding IS NOT NULL)
      ORDER BY opened_at DESC LIMIT 1`,
    [draftId, sessionId],
  );
  const earlier = rows[0];
  if (!earlier) return faces;
  return {
    selfie:
      faces.selfie ??
      sealer.openJson<number[]>(earlier.id, 'selfie_embedding', earlier.selfie_embedding),
    portrait:
      faces.portrait ??
      sealer.openJson<number[]>(earlier.id, 'portrait_embedding', earlier.portrait_embedding),
  };
}

/**
 * What a new case keeps of its registration's evidence: the images, the fields and the faces'
 * descriptions sealed to the case, the patient's claim, and the engine's findings.
 */
export function caseEvidence(
  s: ReturnType<typeof caseSealer>,
  id: string,
  e: KycEvidence | null,
  faces: Faces,
  claim: PatientClaim | null,
): Pick<NewCase, 'sealed' | 'engine'> {
  return {
    sealed: {
      selfie: s.seal(id, 'selfie', e?.selfie ?? null),
      portrait: s.seal(id, 'portrait', e?.portrait ?? null),
      front: s.seal(id, 'front', e?.front ?? null),
      back: s.seal(id, 'back', e?.back ?? null),
      fields: s.sealJson(id, 'fields', e?.idData ?? null),
      selfie_embedding: s.sealJson(id, 'selfie_embedding', faces.selfie),
      portrait_embedding: s.sealJson(id, 'portrait_embedding', faces.portrait),
      patient_claim: s.sealJson(id, 'patient_claim', claim),
    },
    engine: {
      reasons: e?.reasons ?? [],
      faceSimilarity: e?.faceSimilarity ?? null,
      faceThreshold: e?.faceThreshold ?? null,
      attempts: { liveness: e?.attempts.liveness ?? 0, scans: e?.attempts.scans ?? 0 },
      signals: e?.signals ?? {},
    },
  };
}

async function openNewCase(
  tx: Db,
  a: {
    draftId: string;
    celular: string;
    input: OpenInput;
    sessionId: string | null;
    evidence: KycEvidence | null;
    faces: Faces;
    now: Date;
    reviewMs: number;
    centreMs: number;
    sealer: ReturnType<typeof caseSealer>;
  },
): Promise<CaseRow> {
  const id = randomUUID();
  const { kind, step } = a.input;
  const e = a.evidence;
  // The browser names what it saw, but never decides supervision: a session the engine refused
  // for faces that differ or for two cards is that case, whatever trigger the browser sent.
  const engineSupervised = SUPERVISED_TRIGGERS.findLast((t) =>
    (e?.reasons as readonly string[] | undefined)?.includes(t),
  );
  const trigger: CaseTrigger = engineSupervised ?? a.input.trigger;
  const code = kind === 'centro' ? await newCentreCode(tx) : null;
  const expectedBy = new Date(a.now.getTime() + (kind === 'centro' ? a.centreMs : a.reviewMs));
  const row = await insertCase(tx, {
    id,
    draftId: a.draftId,
    celular: a.celular,
    kind,
    trigger,
    step,
    sessionId: a.sessionId,
    openedAt: a.now,
    expectedBy,
    code,
    ...caseEvidence(a.sealer, id, e, a.faces, a.input.claim ?? null),
  });
  await audit(tx, {
    caseId: id,
    actor: null,
    action: 'open',
    detail: {
      kind,
      trigger,
      ...(trigger !== a.input.trigger ? { asked: a.input.trigger } : {}),
      step,
      supervised: SUPERVISED_TRIGGERS.includes(trigger),
      // Which field the patient named, never what they wrote (the log outlives the case's data).
      ...(a.input.claim ? { claim: a.input.claim.field } : {}),
      evidence: e
        ? (['selfie', 'portrait', 'front', 'back'] as const).filter((p) => e[p] !== null)
        : [],
    },
    at: a.now,
  });
  return row;
}

/** The registration's newest case as its patient sees it, or null. */
export async function caseStatusOf(ctx: AppContext, token: string): Promise<CaseStatus | null> {
  const draft = await draftOf(ctx, token, { finished: true });
  const latest = await latestCaseOf(ctx.db, draft.id);
  return latest ? toCaseStatus(latest) : null;
}

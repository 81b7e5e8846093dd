import type {
  CaseKind,
  CaseStatus,
  CaseStep,
  CaseTrigger,
  CentresResponse,
  PatientClaim,
} from '../../contract/cases';
import type { IdData } from '../../contract/onboarding';

export type { RejectReason } from '../../contract/cases';

/**
 * The patient's way out of the identity step (issue 30): a person reviews the case, or the patient
 * verifies at a health centre with a code. Its machine is kyc.assist.machine.ts (a child of the KYC
 * machine, which enters it as kyc.assist.ts says); its calls kyc.assist.api.ts.
 */

/** Where 'Volver' goes back to from the offer (the step the patient chose to leave). */
export type AssistBack = 'selfie' | 'document' | 'rejected';

/** Why the assisted verification stopped; each code has its Spanish text in src/copy/es.assist.ts. */
export type AssistErrorCode =
  /** no answer (offline, or the server did not answer): nothing is lost, try again */
  | 'network'
  /** the server refused otherwise (its message shown when it sent one) */
  | 'failed'
  /** 409 case_taken: a person already took the review, it cannot become a centre case now */
  | 'caseTaken'
  /** 409 case_decided: the case was decided meanwhile (its status follows) */
  | 'caseDecided'
  /** 409 registration_complete: the patient already finished registering */
  | 'registrationComplete'
  /** GET /centros failed */
  | 'centresFailed';

export type AssistError = { code: AssistErrorCode; serverMessage?: string };

/** What the patient asked for: the case to open (kind), why (trigger) and on which step. */
export type AssistRequest = {
  trigger: CaseTrigger;
  step: CaseStep;
  /** chosen by the patient on a step ('No puedo completar este paso'): 'Volver' goes back there */
  back: AssistBack | null;
  kind: CaseKind | null;
};

/**
 * What the KYC machine hands its `assist` child: the way out asked for and what the identity step
 * holds that the case needs (fixed while the child runs).
 */
export type AssistInput = {
  /** the registration the case is for ('' where there is none, as in the stories) */
  registrationToken: string;
  /** the way out asked for (null: a resumed registration's case, shown at once) */
  assist: AssistRequest | null;
  /** the registration's case already known (a resumed registration's), else null */
  case: CaseStatus | null;
  /**
   * The front taken on this attempt and never sent (no scan answered it), with its session: a case
   * asked for on the back sends it first (issue 43 item 1). Null: nothing to send.
   */
  unsentFront: { sessionId: string; front: Blob } | null;
  /** the review's 'Hay un dato mal' (issue 43 item 7): every case opened carries it */
  claim: PatientClaim | null;
};

/** The child's context: its input (the request and the case as they change) and what it loads. */
export type AssistContext = AssistInput & {
  /** the health centres by department (loaded with a centre code) */
  centres: CentresResponse | null;
  /** the department whose centres show */
  department: string | null;
  /** the assisted verification's failure (apart from the KYC's `error`, the step's refusal) */
  assistError: AssistError | null;
};

/** 'Volver' from the offer: the step the patient goes back to (the child ends there). */
export type AssistOutput = { back: AssistBack };

/** Where a resumed registration with a case continues inside the identity step. */
export type AssistResume =
  /** a case open, rejected or expired: the case screen */
  | { at: 'case'; case: CaseStatus }
  /** a person approved the case: the complementary data, with the identity they verified */
  | { at: 'supplementary'; idData: IdData }
  /** a person asked for the selfie again */
  | { at: 'selfie' };

export type AssistEvent =
  /** 'No puedo completar este paso': the offer */
  | { type: 'assist.open' }
  /** 'Que lo revise una persona' (review) or 'Verificar en un centro de salud' (centro) */
  | { type: 'assist.choose'; kind: CaseKind }
  /** 'Volver': back to the step the patient left */
  | { type: 'assist.back' }
  /** 'Reintentar' after a failure: the same request again */
  | { type: 'assist.retry' }
  /** 'Actualizar': the case's status again */
  | { type: 'case.refresh' }
  /** the department whose health centres show */
  | { type: 'centre.department'; departamento: string };

import type {
  CaseKind,
  CaseStatus,
  CaseStep,
  CaseTrigger,
  CentresResponse,
} from '../../contract/cases';
import type { IdData } from '../../contract/onboarding';

export type { RejectReason } from '../../contract/cases';

/**
 * The patient's way out of the identity step (issue 30): a person reviews the case, or the patient
 * verifies at a health centre with a code. Its states are kyc.assist.ts; its calls kyc.assist.api.ts.
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

export type AssistContext = {
  /** the way out asked for (null: none) */
  assist: AssistRequest | null;
  /** the registration's case, as the server answered */
  case: CaseStatus | null;
  /** the health centres by department (loaded with a centre code) */
  centres: CentresResponse | null;
  /** the department whose centres show */
  department: string | null;
  /** the assisted verification's failure (apart from `error`, the identity step's refusal) */
  assistError: AssistError | null;
  /** a repeat decision resumed here (the selfie or one side of the card): its notice shows */
  repeatNotice: boolean;
  /** the identity a person verified, resumed at the complementary data: its notice shows */
  verifiedNotice: boolean;
  /** a person asked for this side of the card only: the server keeps the other (scan-id gets one) */
  retakeOnly: 'front' | 'back' | null;
};

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

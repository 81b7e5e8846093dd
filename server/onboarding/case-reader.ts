import type { CaseStatus } from '../../contract/cases';

/**
 * A registration's case as registration reads it (issue 30): the case as its patient sees it, and
 * the card's sides it holds (a repeat of one side keeps the other).
 */
export type RegistrationCase = { status: CaseStatus; holds: { front: boolean; back: boolean } };

/**
 * What registration reads of assisted verification (server/cases). Registration owns this port;
 * server/cases implements it (`caseReader`, cases/reader.ts) and server/app.ts wires it, so the only
 * arrow between the two areas runs from cases to onboarding (a case opens on a registration and
 * hands it back), as kyc-store.ts does for the identity engine.
 */
export interface CaseReader {
  /** The registration's newest case, or null. */
  latestOf(draftId: string): Promise<RegistrationCase | null>;
  /** Whether the registration has a case waiting for a decision (registering is refused then). */
  hasOpen(draftId: string): Promise<boolean>;
  /**
   * Duplicates at registration (issue 44 item 3): the enrolled patients a supervisor decided this
   * registration is not (its approved 'posible duplicado' cases).
   */
  approvedDuplicatesOf(draftId: string): Promise<string[]>;
  /**
   * The one case registration itself opens: the verified face is an enrolled patient's with another
   * document ('posible duplicado', for a supervisor, with both records' evidence). Answers the case
   * as its patient sees it (a person's review; nothing of the other patient); an open case of the
   * registration is answered as it is.
   */
  openDuplicate(found: DuplicateFound): Promise<CaseStatus>;
}

/** What registration found: its registration, its KYC session, the enrolled patient and the score. */
export type DuplicateFound = {
  draftId: string;
  sessionId: string;
  patientId: string;
  similarity: number;
  threshold: number;
};

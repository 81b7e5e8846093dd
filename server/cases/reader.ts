import type { AppContext } from '../context';
import type { Db } from '../db/client';
import type { CaseReader } from '../onboarding/case-reader';
import { openDuplicateCase } from './duplicate';
import { approvedDuplicatesOf, hasOpenCase, latestCaseOf, toCaseStatus } from './status';

/**
 * Registration's port on cases (server/onboarding/case-reader.ts), over `db`; `ctx` (the app's, once
 * made) for the one case registration opens itself.
 */
export function caseReader(db: Db, ctx: () => AppContext): CaseReader {
  return {
    async latestOf(draftId) {
      const row = await latestCaseOf(db, draftId);
      return (
        row && { status: toCaseStatus(row), holds: { front: row.has_front, back: row.has_back } }
      );
    },
    hasOpen: (draftId) => hasOpenCase(db, draftId),
    approvedDuplicatesOf: (draftId) => approvedDuplicatesOf(db, draftId),
    openDuplicate: (found) => openDuplicateCase(ctx(), found),
  };
}

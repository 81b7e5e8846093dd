/**
 * The operator's side of a case (issue 30), by reason to change: claims.ts (the queue, claims, the
 * code look-up), detail.ts (what an operator reads), decision.ts (corrections and the decision),
 * desk.ts (the health centre's desk photo), on access.ts (who may look or act) and store.ts (the
 * one writer of `cases`). One import for the routes (operator-routes.ts) and bench/case-claim.ts.
 */
export type { CaseOperator } from './access';
export { claimNext, lookupCode, queue, releaseCase } from './claims';
export { correctField, decide } from './decision';
export { deskPhoto } from './desk';
export { caseDetail, caseImage } from './detail';

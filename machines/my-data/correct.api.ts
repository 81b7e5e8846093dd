import {
  correctionResponse,
  correctionsResponse,
  correctPaths,
  type CorrectionItem,
  type CorrectionRequest,
} from '../../contract/my-data-correct';
import { request } from '../shared/http';
import { fromPromise } from 'xstate';

export type { CorrectionField, CorrectionItem } from '../../contract/my-data-correct';

/** The signed-in patient's correction requests and their state (issue 45 item 5). */
export const listCorrections = fromPromise<CorrectionItem[]>(async ({ signal }) => {
  const { requests } = await request(correctPaths.requests, {
    schema: correctionsResponse,
    signal,
  });
  return requests;
});

/** Asks that one field say another value, with the reason; the request as it now is. */
export const sendCorrection = fromPromise<CorrectionItem, CorrectionRequest>(
  async ({ input, signal }) => {
    const { request: created } = await request(correctPaths.requests, {
      body: input,
      schema: correctionResponse,
      signal,
    });
    return created;
  },
);

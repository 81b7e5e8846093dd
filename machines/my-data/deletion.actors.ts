import { fromPromise } from 'xstate';
import type { DeletionCodeResponse, DeletionStatusResponse } from '../../contract/my-data-deletion';
import { askDeletionCode, cancelDeletion, confirmDeletion, getDeletion } from './deletion.api';
import type { PendingDeletion } from './deletion.types';

export const loadDeletion = fromPromise<DeletionStatusResponse>(({ signal }) =>
  getDeletion(signal),
);
export const sendCode = fromPromise<DeletionCodeResponse, { pin: string }>(({ input, signal }) =>
  askDeletionCode(input.pin, signal),
);
export const confirm = fromPromise<PendingDeletion | null, { code: string }>(
  async ({ input, signal }) => (await confirmDeletion(input.code, signal)).deletion,
);
export const cancel = fromPromise<void>(async ({ signal }) => {
  await cancelDeletion(signal);
});

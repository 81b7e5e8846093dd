import { fromPromise } from 'xstate';
import type { DownloadResponse, SecondaryUseResponse } from '../../contract/my-data-download';
import { askDownload, getSecondaryUse, saveSecondaryUse } from './download.api';

export const requestDownload = fromPromise<DownloadResponse>(({ signal }) => askDownload(signal));

export const loadSecondaryUse = fromPromise<SecondaryUseResponse>(({ signal }) =>
  getSecondaryUse(signal),
);

export const storeSecondaryUse = fromPromise<SecondaryUseResponse, { optedOut: boolean }>(
  ({ input, signal }) => saveSecondaryUse(input.optedOut, signal),
);

import {
  downloadResponse,
  myDataDownloadPaths,
  secondaryUseResponse,
  type DownloadResponse,
  type SecondaryUseResponse,
} from '../../contract/my-data-download';
import { request } from '../shared/http';

/** Asks for the patient's file: ready with its link, or being built by another request. */
export function askDownload(signal?: AbortSignal): Promise<DownloadResponse> {
  return request(myDataDownloadPaths.download, {
    method: 'POST',
    body: {},
    schema: downloadResponse,
    signal,
  });
}

/** The patient's choice about secondary uses. */
export function getSecondaryUse(signal?: AbortSignal): Promise<SecondaryUseResponse> {
  return request(myDataDownloadPaths.secondaryUse, { schema: secondaryUseResponse, signal });
}

export function saveSecondaryUse(
  optedOut: boolean,
  signal?: AbortSignal,
): Promise<SecondaryUseResponse> {
  return request(myDataDownloadPaths.secondaryUse, {
    method: 'POST',
    body: { optedOut },
    schema: secondaryUseResponse,
    signal,
  });
}

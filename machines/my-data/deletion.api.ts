import {
  deletionCodeResponse,
  deletionPaths,
  deletionStatusResponse,
  type DeletionCodeResponse,
  type DeletionStatusResponse,
} from '../../contract/my-data-deletion';
import { request } from '../shared/http';

/** The pending deletion of the signed-in patient, if any. */
export function getDeletion(signal?: AbortSignal): Promise<DeletionStatusResponse> {
  return request(deletionPaths.status, { schema: deletionStatusResponse, signal });
}

/** The PIN: an SMS code goes to the registered mobile. */
export function askDeletionCode(pin: string, signal?: AbortSignal): Promise<DeletionCodeResponse> {
  return request(deletionPaths.code, { body: { pin }, schema: deletionCodeResponse, signal });
}

/** The SMS code: the deletion is asked, due after the waiting period. */
export function confirmDeletion(codigo: string, signal?: AbortSignal) {
  return request(deletionPaths.confirm, {
    body: { codigo },
    schema: deletionStatusResponse,
    signal,
  });
}

export function cancelDeletion(signal?: AbortSignal): Promise<DeletionStatusResponse> {
  return request(deletionPaths.cancel, { body: {}, schema: deletionStatusResponse, signal });
}

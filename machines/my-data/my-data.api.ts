import {
  accessesResponse,
  myDataPaths,
  myDataResponse,
  type AccessesResponse,
  type MyDataResponse,
} from '../../contract/my-data';
import { request } from '../shared/http';

/** What the service holds about the signed-in patient (the session cookie says who). */
export function getMyData(signal?: AbortSignal): Promise<MyDataResponse> {
  return request(myDataPaths.data, { schema: myDataResponse, signal });
}

/** 'Quién vio mis datos': every look at the patient's data and every way into the account. */
export function getAccesses(signal?: AbortSignal): Promise<AccessesResponse> {
  return request(myDataPaths.accesses, { schema: accessesResponse, signal });
}

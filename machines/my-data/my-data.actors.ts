import { fromPromise } from 'xstate';
import { getAccesses, getMyData } from './my-data.api';
import type { MyDataLoaded } from './my-data.types';

/** Both answers at once; the data first, so the look is logged before the list is read. */
export const loadMyData = fromPromise<MyDataLoaded>(async ({ signal }) => {
  const data = await getMyData(signal);
  const { accesses } = await getAccesses(signal);
  return { data, accesses };
});

import type { Access, MyDataResponse } from '../../contract/my-data';
import type { FlowError } from '../shared/errors';

export type { Access, AccessKind, MyDataResponse } from '../../contract/my-data';

/** The sections of 'Mis datos' the menu lists: only what works (issue 45 items 1-7). */
export type MyDataSection =
  'data' | 'accesses' | 'download' | 'secondaryUse' | 'deletion' | 'face' | 'corrections';

/** What one load brings: the data the service holds and who looked at it. */
export type MyDataLoaded = { data: MyDataResponse; accesses: Access[] };

export type MyDataContext = {
  loaded: MyDataLoaded | null;
  error: FlowError | null;
};

export type MyDataEvent = { type: 'section.show'; section: MyDataSection } | { type: 'load.retry' };

import type { PendingDeletion } from '../../contract/my-data-deletion';
import type { FlowError } from '../shared/errors';

export type { PendingDeletion } from '../../contract/my-data-deletion';

/**
 * 'Eliminar mi cuenta' (issue 45 item 6), the `deletion` child of the Mis datos machine: what the
 * patient typed (kept across errors until the request is made), the pending deletion, the error.
 */
export type DeletionContext = {
  pin: string;
  code: string;
  pending: PendingDeletion | null;
  /** how long a deletion waits once asked (hours), as the server said; null before it said */
  waitHours: number | null;
  error: FlowError | null;
  /** failed submits so far: each new one puts the focus back on the field to fix */
  failures: number;
};

export type DeletionEvent =
  | { type: 'deletion.start' }
  | { type: 'deletion.back' }
  | { type: 'pin.change'; value: string }
  | { type: 'pin.submit' }
  | { type: 'code.change'; value: string }
  | { type: 'code.submit' }
  | { type: 'code.resend' }
  | { type: 'deletion.cancel' }
  | { type: 'load.retry' };

import type { SnapshotFrom } from 'xstate';
import { FULL_NAME_MAX, MARITAL_STATUSES, NATIONALITIES, SEXES } from '../../contract/case-fields';
import { CORRECTION_REQUEST_REASON } from '../../contract/my-data-correct';
import type { CorrectionField } from './correct.api';
import type { CorrectMachine } from './correct.machine';

type Snapshot = SnapshotFrom<CorrectMachine>;

export type CorrectScreen = 'loading' | 'failed' | 'list' | 'choosing' | 'writing' | 'sent';

/** The fields picked from a list (as the cédula prints them), and the date typed as on the card. */
const CHOICES: Partial<Record<CorrectionField, readonly string[]>> = {
  Gender: SEXES,
  Nationality: NATIONALITIES,
  MaritalStatus: MARITAL_STATUSES,
};

/** Everything the 'Corregir' screens show, from the child's snapshot. */
export function selectCorrect(s: Snapshot) {
  const c = s.context;
  const screen: CorrectScreen = s.matches('loading')
    ? 'loading'
    : s.matches('failed')
      ? 'failed'
      : s.matches('choosing')
        ? 'choosing'
        : s.matches('writing') || s.matches('sending')
          ? 'writing'
          : s.matches('sent')
            ? 'sent'
            : 'list';
  return {
    screen,
    requests: c.requests,
    identity: c.identity,
    /** a field with a request pending cannot be asked again until it is decided */
    pending: new Set(c.requests.filter((r) => r.state === 'pending').map((r) => r.field)),
    field: c.field,
    current: c.identity.find((i) => i.field === c.field)?.value ?? null,
    value: c.value,
    reason: c.reason,
    choices: c.field ? (CHOICES[c.field] ?? null) : null,
    sending: s.matches('sending'),
    canSend: s.can({ type: 'send' }),
    /** the longest a typed value and the reason may be (the contract's) */
    valueMax: FULL_NAME_MAX,
    reasonMax: CORRECTION_REQUEST_REASON.max,
    error: c.error,
    sessionEnded: c.error?.status === 401,
    /** the request just sent */
    sent: s.matches('sent') ? (c.requests[0] ?? null) : null,
  };
}

import type { SnapshotFrom } from 'xstate';
import type { KycMachine } from './kyc.machine';

type Snapshot = SnapshotFrom<KycMachine>;

export type KycScreen = 'loading' | 'failed' | 'unexpectedStep';

export const selectKycScreen = (s: Snapshot): KycScreen =>
  s.matches('failed') ? 'failed' : s.matches('unexpectedStep') ? 'unexpectedStep' : 'loading';

export const selectKycView = (s: Snapshot) => ({
  screen: selectKycScreen(s),
  busy: s.hasTag('busy'),
  error: s.hasTag('error') ? s.context.error : null,
  canRetry: s.can({ type: 'kyc.retry' }),
});
export type KycView = ReturnType<typeof selectKycView>;

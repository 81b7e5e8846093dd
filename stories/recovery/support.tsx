import { useActorRef } from '@xstate/react';
import type { ReactNode } from 'react';
import { fromPromise, type SnapshotFrom } from 'xstate';
import type { SendPinOtpResponse, SetNewPinResponse } from '../../contract/recovery';
import { otpMachine } from '../../machines/otp/otp.machine';
import type { OtpVerdict } from '../../machines/otp/otp.types';
import { recoveryMachine } from '../../machines/recovery/recovery.machine';
import { RecoveryActor } from '../../src/flows/recovery/recovery.context';
import { VerificationScreen } from '../../src/flows/recovery/screens/VerificationScreen';
import { AtSnapshot, pending } from '../support';

/** Step 1's OTP child with calls that never settle, as recovery wires it (no auto-validation). */
const storyOtpMachine = otpMachine.provide({
  actors: {
    validateCode: fromPromise(() => pending<OtpVerdict>()),
    resendCode: fromPromise(() => pending<OtpVerdict>()),
  },
});

/** The recovery machine for stories: no call reaches the API. */
export const storyRecoveryMachine = recoveryMachine.provide({
  actors: {
    sendRecoveryCode: fromPromise(() => pending<SendPinOtpResponse>()),
    saveNewPin: fromPromise(() => pending<SetNewPinResponse>()),
    otp: storyOtpMachine,
  },
});

/** The recovery flow restored at a fixture. */
export function AtRecovery({
  snapshot,
  children,
}: {
  snapshot: SnapshotFrom<typeof recoveryMachine>;
  children: ReactNode;
}) {
  return (
    <AtSnapshot Provider={RecoveryActor.Provider} logic={storyRecoveryMachine} snapshot={snapshot}>
      {children}
    </AtSnapshot>
  );
}

/** Step 1 with the OTP child restored at a fixture (a restored parent has no live children). */
export function RecoveryOtpAt({ snapshot }: { snapshot: SnapshotFrom<typeof otpMachine> }) {
  const otp = useActorRef(storyOtpMachine, {
    snapshot,
    input: { recipient: snapshot.context.recipient },
  });
  return <VerificationScreen otp={otp} />;
}

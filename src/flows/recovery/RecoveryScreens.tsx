import {
  selectOtpActor,
  selectRecoveryScreen,
} from '../../../machines/recovery/recovery.selectors';
import { RecoveryActor } from './recovery.context';
import { DoneScreen } from './screens/DoneScreen';
import { NewPinScreen } from './screens/NewPinScreen';
import { RequestScreen } from './screens/RequestScreen';
import { UnexpectedScreen } from './screens/UnexpectedScreen';
import { VerificationScreen } from './screens/VerificationScreen';

/** The recovery machine's state to its screen; step 1 renders the OTP child's state. */
export function RecoveryScreens() {
  const screen = RecoveryActor.useSelector(selectRecoveryScreen);
  const otp = RecoveryActor.useSelector(selectOtpActor);
  switch (screen) {
    case 'request':
      return <RequestScreen />;
    case 'verification':
      return otp ? <VerificationScreen otp={otp} /> : null;
    case 'newPin':
      return <NewPinScreen />;
    case 'unexpected':
      return <UnexpectedScreen />;
    case 'done':
      return <DoneScreen />;
  }
}

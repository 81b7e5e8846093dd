import { inspect } from '../../app/inspector';
import { RecoveryActor } from './recovery.context';
import { RecoverPinScreens } from './RecoverPinScreens';

/** /recuperar-pin: the recovery actor lives as long as the page; a reload starts over at step 0. */
export default function RecoverPinFlow() {
  return (
    <RecoveryActor.Provider options={{ inspect }}>
      <RecoverPinScreens />
    </RecoveryActor.Provider>
  );
}

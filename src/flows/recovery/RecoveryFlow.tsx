import { inspect } from '../../app/inspector';
import { RecoveryActor } from './recovery.context';
import { RecoveryScreens } from './RecoveryScreens';

/** /recuperar-pin: the recovery actor lives as long as the page; a reload starts over at step 0. */
export default function RecoveryFlow() {
  return (
    <RecoveryActor.Provider options={{ inspect }}>
      <RecoveryScreens />
    </RecoveryActor.Provider>
  );
}

import { inspect } from '../../app/inspector';
import { DashboardActor } from './dashboard.context';
import { DashboardScreen } from './DashboardScreen';

export default function DashboardFlow() {
  return (
    <DashboardActor.Provider options={{ inspect }}>
      <DashboardScreen />
    </DashboardActor.Provider>
  );
}

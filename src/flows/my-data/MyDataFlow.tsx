import { inspect } from '../../app/inspector';
import { RequireSession } from '../session/guards';
import { MyDataActor } from './my-data.context';
import { MyDataScreens } from './MyDataScreens';

/** /mis-datos (issue 45): its own chunk, loaded only when opened; a live session is required. */
export default function MyDataFlow() {
  return (
    <RequireSession>
      <MyDataActor.Provider options={{ inspect }}>
        <MyDataScreens />
      </MyDataActor.Provider>
    </RequireSession>
  );
}

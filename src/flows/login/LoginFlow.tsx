import { useEffect } from 'react';
import { selectLoginDone } from '../../../machines/login/login.selectors';
import { inspect } from '../../app/inspector';
import { SessionActor } from '../session/session.context';
import { LoginActor } from './login.context';
import { LoginScreen } from './LoginScreen';

/** When the login machine is done, the session machine learns it; the route guard then moves on. */
function NotifySession() {
  const done = LoginActor.useSelector(selectLoginDone);
  const session = SessionActor.useActorRef();
  useEffect(() => {
    if (done) session.send({ type: 'session.loggedIn' });
  }, [done, session]);
  return null;
}

export default function LoginFlow() {
  return (
    <LoginActor.Provider options={{ inspect }}>
      <NotifySession />
      <LoginScreen />
    </LoginActor.Provider>
  );
}

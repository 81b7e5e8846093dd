import { selectLoginActor } from '../../../machines/session/session.selectors';
import { SessionActor } from '../session/session.context';
import { LoginActor } from './login.context';
import { LoginScreen } from './LoginScreen';

/**
 * /login: the form of the login machine the session machine invokes while no patient is known.
 * The session machine learns from that child's final state that the login is done; the route guard
 * then moves on to /dashboard.
 */
export default function LoginFlow() {
  const login = SessionActor.useSelector(selectLoginActor);
  // No login child: a patient is known, and RedirectIfSession is on its way to /dashboard.
  if (!login) return null;
  return (
    <LoginActor.RefProvider actorRef={login}>
      <LoginScreen />
    </LoginActor.RefProvider>
  );
}

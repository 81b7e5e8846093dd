import { selectOperatorScreen } from '../../../machines/operador/operador.selectors';
import { operador } from '../../copy/es.operador';
import { Heading } from '../../components/Heading';
import { Muted, Page } from '../../components/Page';
import { OperatorActor } from './operador.context';
import { DeskScreen } from './screens/DeskScreen';
import { EnrolmentScreen } from './screens/EnrolmentScreen';
import { LoginScreen } from './screens/LoginScreen';

/** The back office's screen for the session's state (a switch, no logic). */
export function OperatorScreens() {
  const screen = OperatorActor.useSelector(selectOperatorScreen);
  switch (screen) {
    case 'checking':
      return (
        <Page>
          <Heading>{operador.title}</Heading>
          <Muted role="status">{operador.checking}</Muted>
        </Page>
      );
    case 'enrolment':
      return <EnrolmentScreen />;
    case 'desk':
      return <DeskScreen />;
    default:
      return <LoginScreen />;
  }
}

import { selectOperatorScreen } from '../../../machines/operators/operators.selectors';
import { operador } from '../../copy/es.operators';
import { Heading } from '../../components/Heading';
import { Muted, Page } from '../../components/Page';
import { OperatorActor } from './operators.context';
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

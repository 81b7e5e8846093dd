import styled from 'styled-components';
import {
  selectFaceLoginView,
  selectKioskView,
} from '../../../machines/face-login/face-login.selectors';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Button } from '../../components/Button';
import { Heading } from '../../components/Heading';
import { Page, Stack } from '../../components/Page';
import { errorText } from '../../copy/es';
import { faceLogin, faceLoginErrors } from '../../copy/es.faceLogin';
import { media, theme } from '../../theme/theme';
import { FaceLoginActor } from './face-login.context';
import { CameraPanel, DeviceNotice } from './FaceLoginParts';

const copy = faceLogin.kiosk;

/**
 * A fixed height, room for the longest moment (a three-line hint; a time-up and its button), so
 * the camera below never moves when the result comes and goes (issue 29 item 17: it jumped 30 px
 * each cycle). Wider screens wrap less.
 */
const Moment = styled.div<{ $tone: 'neutral' | 'ok' | 'fail' }>`
  height: 200px;
  overflow: hidden;
  ${media.sm} {
    height: 168px;
  }
  display: flex;
  flex-direction: column;
  justify-content: center;
  gap: 6px;
  padding: 12px 16px;
  border-radius: ${theme.radius}px;
  text-align: center;
  border: 2px solid
    ${({ $tone }) =>
      $tone === 'ok'
        ? theme.colors.primary
        : $tone === 'fail'
          ? theme.colors.error
          : theme.colors.border};
  background: ${({ $tone }) =>
    $tone === 'ok'
      ? theme.colors.infoBg
      : $tone === 'fail'
        ? theme.colors.errorBg
        : theme.colors.surface};
`;

const Greeting = styled.p`
  margin: 0;
  font-size: 2rem;
  line-height: 1.2;
  font-weight: 700;
  color: ${theme.colors.primaryDark};
  overflow-wrap: break-word;
  /* From a tablet up the greeting is one line (the kiosk's card is wide there). */
  ${media.sm} {
    white-space: nowrap;
    overflow: hidden;
    text-overflow: ellipsis;
  }
`;

const Restart = styled(Button)`
  align-self: center;
  width: auto;
  padding: 0 24px;
`;

const Big = styled.p`
  margin: 0;
  font-size: 1.375rem;
  font-weight: 600;
`;

const Small = styled.p`
  margin: 0;
  font-size: 1.0625rem;
`;

/**
 * `/face-login?modo=kiosco`: the patient screen of a kiosk in a public place. The result comes
 * first (above the fold at 360 px and on a landscape tablet) and stays for the whole cooldown: a
 * large greeting with the given names and the document number's last three digits. No session,
 * profile, interval, confidence or threshold (manual mode keeps that diagnostic panel).
 */
export function KioskScreen() {
  const view = FaceLoginActor.useSelector(selectFaceLoginView);
  const kiosk = FaceLoginActor.useSelector(selectKioskView);
  const { send } = FaceLoginActor.useActorRef();
  // A device that is not activated is said in the moment box, in the patient's words; the staff's
  // command is in the server's log, never on this screen.
  const error = kiosk.moment === 'blocked' ? null : errorText(view.error, faceLoginErrors);
  const tone =
    kiosk.moment === 'recognised'
      ? 'ok'
      : kiosk.moment === 'notRecognised' || kiosk.moment === 'blocked'
        ? 'fail'
        : 'neutral';
  return (
    <Page wide>
      <Stack>
        <Heading focusOnMount>{faceLogin.title}</Heading>
        <DeviceNotice view={view} />
        <Moment $tone={tone} role="status" aria-label={copy.statusLabel} data-testid="kiosk-moment">
          {kiosk.greeting ? (
            <>
              <Greeting>{copy.greeting(kiosk.greeting.names)}</Greeting>
              <Small>{copy.documentTail(kiosk.greeting.documentTail)}</Small>
            </>
          ) : kiosk.moment === 'timedOut' ? (
            <>
              <Big>{copy.moments.timedOut}</Big>
              <Restart
                type="button"
                disabled={!kiosk.canRestart}
                onClick={() => send({ type: 'auth.start' })}
              >
                {copy.restart}
              </Restart>
            </>
          ) : kiosk.moment === 'notRecognised' ? (
            <>
              <Big>{kiosk.detail || faceLogin.notRecognised}</Big>
              <Small>{copy.moments.notRecognised}</Small>
            </>
          ) : (
            <Big>{kiosk.hint ?? copy.moments[kiosk.moment]}</Big>
          )}
        </Moment>
        <CameraPanel view={view} />
        {error ? <ErrorBanner message={error} /> : null}
      </Stack>
    </Page>
  );
}

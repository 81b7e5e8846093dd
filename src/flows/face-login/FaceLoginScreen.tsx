import {
  selectFaceLoginView,
  type FaceLoginView,
} from '../../../machines/face-login/face-login.selectors';
import { BackLink } from '../../components/BackLink';
import { Button } from '../../components/Button';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Heading } from '../../components/Heading';
import { Header, Muted, Page, Stack } from '../../components/Page';
import { common, errorText } from '../../copy/es';
import { faceLogin, faceLoginErrors } from '../../copy/es.faceLogin';
import { FaceLoginActor } from './face-login.context';
import { CameraPanel, DeviceHelp, DeviceNotice } from './FaceLoginParts';
import { KioskScreen } from './KioskScreen';
import {
  Buttons,
  FeedbackList,
  Fieldset,
  ResultBox,
  Section,
  SectionTitle,
  StatusList,
} from './FaceLoginScreen.styles';

function StatusPanel({ view }: { view: FaceLoginView }) {
  const l = faceLogin.statusLabels;
  return (
    <Section aria-labelledby="face-status">
      <SectionTitle id="face-status">{faceLogin.statusTitle}</SectionTitle>
      <StatusList>
        <dt>{l.camera}</dt>
        <dd>{faceLogin.cameraStates[view.camera]}</dd>
        <dt>{l.session}</dt>
        <dd>{view.sessionId ?? faceLogin.none}</dd>
        <dt>{l.profile}</dt>
        <dd>{view.profile ?? faceLogin.none}</dd>
        <dt>{l.interval}</dt>
        <dd>{faceLogin.intervalMs(view.intervalMs)}</dd>
        <dt>{l.state}</dt>
        <dd>{faceLogin.authStates[view.status]}</dd>
      </StatusList>
    </Section>
  );
}

function Feedback({ lines }: { lines: string[] }) {
  return (
    <Section aria-labelledby="face-feedback">
      <SectionTitle id="face-feedback">{faceLogin.feedbackTitle}</SectionTitle>
      <div aria-live="polite">
        {lines.length ? (
          <FeedbackList>
            {lines.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </FeedbackList>
        ) : (
          <Muted>{faceLogin.noFeedback}</Muted>
        )}
      </div>
    </Section>
  );
}

function Result({ result }: { result: NonNullable<FaceLoginView['result']> }) {
  const l = faceLogin.resultLabels;
  return (
    <Section aria-labelledby="face-result">
      <SectionTitle id="face-result">{faceLogin.resultTitle}</SectionTitle>
      <ResultBox $ok={result.success} role="status">
        {result.success && result.user ? (
          <StatusList>
            <dt>{l.name}</dt>
            <dd>{result.user.full_name}</dd>
            <dt>{l.document}</dt>
            <dd>{result.user.document_number}</dd>
            <dt>{l.confidence}</dt>
            <dd>{faceLogin.score(result.user.face_match_confidence)}</dd>
            {result.authentication ? (
              <>
                <dt>{l.threshold}</dt>
                <dd>{faceLogin.score(result.authentication.threshold_used)}</dd>
              </>
            ) : null}
          </StatusList>
        ) : (
          <p>{result.message || faceLogin.notRecognised}</p>
        )}
      </ResultBox>
    </Section>
  );
}

/** The face-authentication page: the kiosk's patient screen, or manual mode's test page. */
export function FaceLoginScreen() {
  const kiosk = FaceLoginActor.useSelector((s) => selectFaceLoginView(s).mode === 'kiosk');
  return kiosk ? <KioskScreen /> : <ManualScreen />;
}

/** Manual mode, the test page: the spec's status panel, feedback list and full result. */
function ManualScreen() {
  const view = FaceLoginActor.useSelector(selectFaceLoginView);
  const { send } = FaceLoginActor.useActorRef();
  const error = errorText(view.error, faceLoginErrors);
  return (
    <Page>
      <Header>
        <BackLink to="/" label={common.back} />
      </Header>
      <Stack>
        <Heading focusOnMount>{faceLogin.title}</Heading>
        <DeviceNotice view={view} />
        <Fieldset>
          <legend>{faceLogin.modeLegend}</legend>
          <label>
            <input
              type="radio"
              name="face-mode"
              checked={view.mode === 'manual'}
              onChange={() => send({ type: 'mode.manual' })}
            />
            {faceLogin.modes.manual}
          </label>
          <label>
            <input
              type="radio"
              name="face-mode"
              checked={view.mode === 'kiosk'}
              onChange={() => send({ type: 'mode.kiosk' })}
            />
            {faceLogin.modes.kiosk}
          </label>
          <label>
            <input
              type="checkbox"
              checked={view.mirror}
              onChange={() => send({ type: 'mirror.toggle' })}
            />
            {faceLogin.mirror}
          </label>
        </Fieldset>
        <CameraPanel view={view} />
        <Buttons>
          <Button
            type="button"
            disabled={!view.canStart}
            onClick={() => send({ type: 'auth.start' })}
          >
            {faceLogin.start}
          </Button>
          <Button
            type="button"
            $variant="secondary"
            disabled={!view.canStop}
            onClick={() => send({ type: 'auth.stop' })}
          >
            {faceLogin.stop}
          </Button>
        </Buttons>
        {view.result ? <Result result={view.result} /> : null}
        {error ? <ErrorBanner message={error} /> : null}
        {view.error?.code === 'deviceNotActivated' ? (
          <DeviceHelp />
        ) : view.status === 'retrying' ? (
          <Muted>{faceLogin.retryIn}</Muted>
        ) : null}
        <Feedback lines={view.feedback} />
        <StatusPanel view={view} />
      </Stack>
    </Page>
  );
}

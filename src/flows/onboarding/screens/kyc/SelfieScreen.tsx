import { useSelector } from '@xstate/react';
import styled from 'styled-components';
import type { ActorRefFrom } from 'xstate';
import type { KycMachine } from '../../../../../machines/kyc/kyc.machine';
import { selectSelfieView, type SelfieButton } from '../../../../../machines/kyc/kyc.selectors';
import { Button } from '../../../../components/Button';
import { CameraView } from '../../../../components/CameraView';
import { ErrorBanner } from '../../../../components/ErrorBanner';
import { Muted } from '../../../../components/Page';
import { errorText, kyc, kycErrors } from '../../../../copy/es.kyc';
import { theme } from '../../../../theme/theme';
import { Intro } from '../shared.styles';
import { CameraProblem } from './CameraProblem';
import { AssistNotice, AssistOffer } from './AssistOffer';
import { HandoffOffer } from './HandoffOffer';
import { KycLayout, Panel } from './KycLayout';
import { ChallengeCue, ChallengeFraming, ChallengeLight, Stage } from './SelfieChallenge';

const copy = kyc.selfie;

const buttonText: Record<SelfieButton, string> = {
  start: copy.start,
  stop: copy.stop,
  retry: copy.retry,
  redirecting: copy.redirecting,
};

/** Said before the start: the screen will change colour (issue 31). */
const Notice = styled.p`
  margin: 0;
  padding: 12px 16px;
  border-radius: ${theme.radius}px;
  background: ${theme.colors.infoBg};
  color: ${theme.colors.info};
  font-weight: 600;
`;

const Feedback = styled.p`
  margin: 0;
  min-height: 1.5em;
  text-align: center;
  font-weight: 600;
  color: ${theme.colors.text};
`;

/**
 * 'Selfie (parpadeá 3 veces)': the front camera in the 320x360 oval, mirrored, and one button. With
 * a challenge (issue 31): 'Parpadeá ahora' over the oval when the server asks for a blink, and the
 * screen around the oval in the colour the server chose, the texts on their own white panels. On
 * the oval, what to change in the framing (issue 41) while the machine says so.
 */
export function SelfieScreen({ kyc }: { kyc: ActorRefFrom<KycMachine> }) {
  const view = useSelector(kyc, selectSelfieView);
  const error = errorText(view.error, kycErrors);
  return (
    <KycLayout title={copy.title} busy={view.phase === 'running'}>
      <ChallengeLight colour={view.lightColour} />
      <Panel>
        <Intro>{view.onCue ? copy.cueIntro : copy.intro}</Intro>
        {view.lightNotice ? <Notice>{copy.lightNotice}</Notice> : null}
        <AssistNotice kyc={kyc} />
        <HandoffOffer kyc={kyc} at="first" />
      </Panel>
      {view.cameraError ? (
        <Panel>
          <CameraProblem
            code={view.cameraError}
            onRetry={view.canRetryCamera ? () => kyc.send({ type: 'camera.retry' }) : undefined}
          />
        </Panel>
      ) : (
        <Stage>
          <CameraView
            stream={view.stream}
            label={copy.videoLabel}
            shape="oval"
            mirrored
            width={320}
            height={360}
          />
          <ChallengeFraming
            codes={view.framing}
            text={view.framing.map((hint) => copy.framing[hint]).join(' ')}
            label={copy.framingLabel}
          />
          <ChallengeCue shown={view.cue} text={copy.cue} />
        </Stage>
      )}
      <Panel>
        {view.phase === 'opening' ? <Muted role="status">{copy.openingCamera}</Muted> : null}
        <Feedback role="status" aria-live="polite" aria-label={copy.feedbackLabel}>
          {view.phase === 'passed' ? copy.passed : view.feedback.join(' • ')}
        </Feedback>
        {error ? <ErrorBanner message={error} /> : null}
        {view.phase !== 'cameraFailed' ? (
          <Button
            type="button"
            disabled={!view.buttonEnabled}
            onClick={() => kyc.send(view.buttonEvent)}
          >
            {buttonText[view.button]}
          </Button>
        ) : null}
        <HandoffOffer kyc={kyc} at="last" />
        <AssistOffer kyc={kyc} />
      </Panel>
    </KycLayout>
  );
}

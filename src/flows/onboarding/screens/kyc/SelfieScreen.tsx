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
import { KycLayout } from './KycLayout';

const copy = kyc.selfie;

const buttonText: Record<SelfieButton, string> = {
  start: copy.start,
  stop: copy.stop,
  retry: copy.retry,
  redirecting: copy.redirecting,
};

const Feedback = styled.p`
  margin: 0;
  min-height: 1.5em;
  text-align: center;
  font-weight: 600;
  color: ${theme.colors.text};
`;

/** 'Selfie (parpadeá 3 veces)': the front camera in the 320x360 oval, mirrored, and one button. */
export function SelfieScreen({ kyc }: { kyc: ActorRefFrom<KycMachine> }) {
  const view = useSelector(kyc, selectSelfieView);
  const error = errorText(view.error, kycErrors);
  return (
    <KycLayout title={copy.title} busy={view.phase === 'running'}>
      <Intro>{copy.intro}</Intro>
      <AssistNotice kyc={kyc} />
      <HandoffOffer kyc={kyc} at="first" />
      {view.cameraError ? (
        <CameraProblem
          code={view.cameraError}
          onRetry={view.canRetryCamera ? () => kyc.send({ type: 'camera.retry' }) : undefined}
        />
      ) : (
        <CameraView
          stream={view.stream}
          label={copy.videoLabel}
          shape="oval"
          mirrored
          width={320}
          height={360}
        />
      )}
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
    </KycLayout>
  );
}

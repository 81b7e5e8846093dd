import { useSelector } from '@xstate/react';
import { useRef } from 'react';
import styled from 'styled-components';
import { theme } from '../../../../theme/theme';
import type { ActorRefFrom } from 'xstate';
import type { KycMachine } from '../../../../../machines/kyc/kyc.machine';
import { selectDocumentView } from '../../../../../machines/kyc/kyc.selectors';
import { BlobImage } from '../../../../components/BlobImage';
import { Button } from '../../../../components/Button';
import { CameraView } from '../../../../components/CameraView';
import { ErrorBanner } from '../../../../components/ErrorBanner';
import { Muted } from '../../../../components/Page';
import { errorText, kyc, kycErrors } from '../../../../copy/es.kyc';
import { Actions, Intro } from '../shared.styles';
import { CameraProblem } from './CameraProblem';
import { AssistNotice, AssistOffer } from './AssistOffer';
import { HandoffOffer } from './HandoffOffer';
import { KycLayout } from './KycLayout';

const copy = kyc.document;

const CardFramed = styled.div`
  position: relative;
  width: 100%;
  max-width: 480px;
  margin: 0 auto;
  overflow: hidden;
  border-radius: ${theme.radius}px;
`;
const CardOutline = styled.div`
  position: absolute;
  top: 50%;
  left: 50%;
  width: 84%;
  aspect-ratio: 85.6 / 54;
  transform: translate(-50%, -50%);
  border: 3px dashed #ffffff;
  border-radius: 10px;
  box-shadow: 0 0 0 9999px rgba(0, 0, 0, 0.35);
  pointer-events: none;
`;

/** 'frontal' and 'dorso': the rear camera with 'Capturar' / 'Subir imagen', then the preview. */
export function DocumentScreen({ kyc }: { kyc: ActorRefFrom<KycMachine> }) {
  const view = useSelector(kyc, selectDocumentView);
  const file = useRef<HTMLInputElement>(null);
  const front = view.side === 'front';
  const error = errorText(view.error, kycErrors);
  return (
    <KycLayout title={front ? copy.frontTitle : copy.backTitle} busy={view.busy}>
      {view.phase === 'preview' && view.image ? (
        <>
          <Intro>{copy.previewTitle}</Intro>
          <BlobImage blob={view.image} alt={front ? copy.frontPreviewAlt : copy.backPreviewAlt} />
          {view.photoHint ? <Muted role="status">{copy.photoHint[view.photoHint]}</Muted> : null}
          {error ? <ErrorBanner message={error} /> : null}
          <Actions>
            <Button type="button" onClick={() => kyc.send({ type: 'document.accept' })}>
              {copy.accept}
            </Button>
            {view.retake === 'chooseFile' ? (
              <Button type="button" $variant="secondary" onClick={() => file.current?.click()}>
                {copy.chooseAnother}
              </Button>
            ) : (
              <Button
                type="button"
                $variant="secondary"
                onClick={() => kyc.send({ type: 'document.retake' })}
              >
                {copy.retake}
              </Button>
            )}
          </Actions>
        </>
      ) : (
        <>
          <Intro>{front ? copy.frontIntro : copy.backIntro}</Intro>
          <AssistNotice kyc={kyc} />
          <HandoffOffer kyc={kyc} at="first" />
          {view.cameraError ? (
            <CameraProblem
              code={view.cameraError}
              onRetry={() => kyc.send({ type: 'camera.retry' })}
            />
          ) : view.live ? (
            <CardFramed>
              <CameraView
                stream={view.stream}
                label={front ? copy.frontVideoLabel : copy.backVideoLabel}
                width={480}
                height={300}
                onPlaying={() => kyc.send({ type: 'video.playing' })}
              />
              {/* Where the card goes (issue 29 item 14): an ID-1 card's 85.6 x 54 mm outline. */}
              <CardOutline data-testid="card-frame" aria-hidden="true" />
            </CardFramed>
          ) : null}
          {view.cameraNotReady ? <Muted role="status">{copy.cameraNotReady}</Muted> : null}
          {view.phase === 'preparing' ? <Muted role="status">{copy.preparing}</Muted> : null}
          {error ? <ErrorBanner message={error} /> : null}
          <Actions>
            {view.live && !view.cameraError ? (
              <Button
                type="button"
                disabled={!view.canCapture}
                onClick={() => kyc.send({ type: 'document.capture' })}
              >
                {view.phase === 'capturing' ? copy.capturing : copy.capture}
              </Button>
            ) : null}
            <Button
              type="button"
              $variant="secondary"
              disabled={!view.canUpload}
              onClick={() => file.current?.click()}
            >
              {copy.upload}
            </Button>
          </Actions>
          <HandoffOffer kyc={kyc} at="last" />
        </>
      )}
      <AssistOffer kyc={kyc} />
      <input
        ref={file}
        type="file"
        accept="image/*"
        hidden
        aria-hidden="true"
        tabIndex={-1}
        data-testid={`upload-${view.side}`}
        onChange={(e) => {
          const chosen = e.currentTarget.files?.[0];
          e.currentTarget.value = '';
          if (chosen) kyc.send({ type: 'document.upload', file: chosen });
        }}
      />
    </KycLayout>
  );
}

import type { CameraErrorCode } from '../../../../../machines/shared/camera';
import { Button } from '../../../../components/Button';
import { ErrorBanner } from '../../../../components/ErrorBanner';
import { Muted } from '../../../../components/Page';
import { camera, cameraErrors, cameraHelp } from '../../../../copy/es.camera';

/** docs/decisions.md's camera text, what to do about it, and 'Reintentar' where trying again can help. */
export function CameraProblem({
  code,
  onRetry,
}: {
  code: CameraErrorCode;
  onRetry?: (() => void) | undefined;
}) {
  const canRetry = onRetry && code !== 'insecureContext' && code !== 'unsupported';
  return (
    <>
      <ErrorBanner message={cameraErrors[code]} />
      <Muted>{cameraHelp[code]}</Muted>
      {canRetry ? (
        <Button type="button" $variant="secondary" onClick={onRetry}>
          {camera.retry}
        </Button>
      ) : null}
    </>
  );
}

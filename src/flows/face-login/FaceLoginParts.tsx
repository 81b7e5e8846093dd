import type { FaceLoginView } from '../../../machines/face-login/face-login.selectors';
import { Button } from '../../components/Button';
import { CameraView } from '../../components/CameraView';
import { ErrorBanner } from '../../components/ErrorBanner';
import { Muted } from '../../components/Page';
import { camera, cameraErrors } from '../../copy/es.camera';
import { activationErrors, faceLogin } from '../../copy/es.faceLogin';
import { FaceLoginActor } from './face-login.context';
import { Section, SectionTitle } from './FaceLoginScreen.styles';

/** Pieces both modes of /face-login show: the device's activation, the camera, the device help. */

export function DeviceNotice({ view }: { view: FaceLoginView }) {
  if (view.device === 'activating')
    return <ErrorBanner tone="info" message={faceLogin.activating} />;
  if (view.device === 'activated' && view.activatedDevice)
    return <ErrorBanner tone="info" message={faceLogin.activated(view.activatedDevice)} />;
  if (view.activationError) return <ErrorBanner message={activationErrors[view.activationError]} />;
  return null;
}

/** The camera's preview, 'Habilitar cámara' while it is off, its error and 'Reintentar'. */
export function CameraPanel({ view }: { view: FaceLoginView }) {
  const { send } = FaceLoginActor.useActorRef();
  return (
    <>
      <CameraView
        stream={view.stream}
        label={camera.videoLabel}
        mirrored={view.mirror}
        width={320}
        height={320}
      />
      {view.camera === 'off' ? (
        <>
          <Muted>{faceLogin.instruction}</Muted>
          <Button type="button" onClick={() => send({ type: 'camera.enable' })}>
            {faceLogin.enableCamera}
          </Button>
        </>
      ) : null}
      {view.cameraError ? (
        <>
          <ErrorBanner message={cameraErrors[view.cameraError]} />
          <Button type="button" onClick={() => send({ type: 'camera.retry' })}>
            {camera.retry}
          </Button>
        </>
      ) : null}
    </>
  );
}

/** What to do on a device that is not activated (the server requires a kiosk credential). */
export function DeviceHelp() {
  return (
    <Section aria-labelledby="face-device">
      <SectionTitle id="face-device">{faceLogin.deviceHelpTitle}</SectionTitle>
      <Muted>{faceLogin.deviceHelp}</Muted>
    </Section>
  );
}

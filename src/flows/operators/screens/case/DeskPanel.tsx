import { selectDesk } from '../../../../../machines/operators/operators.selectors';
import { cameraErrors } from '../../../../copy/es.camera';
import { caseCopy } from '../../../../copy/es.operators';
import { Button } from '../../../../components/Button';
import { CameraView } from '../../../../components/CameraView';
import { ErrorBanner } from '../../../../components/ErrorBanner';
import { Muted } from '../../../../components/Page';
import { CaseActor } from '../../operators.context';
import { Panel } from '../parts';

/** The desk photo of a centro case: the camera, the capture, or why the camera did not open. */
export function DeskPanel() {
  const desk = CaseActor.useSelector(selectDesk);
  const { send } = CaseActor.useActorRef();
  return (
    <Panel
      id="desk-title"
      title={caseCopy.desk.title}
      onCancel={() => send({ type: 'action.cancel' })}
    >
      <Muted>{caseCopy.desk.intro}</Muted>
      <CameraView stream={desk.stream} label={caseCopy.desk.camera} width={640} height={480} />
      {desk.camera === 'opening' ? <Muted role="status">{caseCopy.desk.opening}</Muted> : null}
      {desk.camera === 'failed' && desk.cameraError ? (
        <>
          <ErrorBanner message={cameraErrors[desk.cameraError]} />
          <Button type="button" onClick={() => send({ type: 'camera.retry' })}>
            {caseCopy.desk.retryCamera}
          </Button>
        </>
      ) : (
        <Button
          type="button"
          disabled={!desk.canCapture}
          onClick={() => send({ type: 'desk.capture' })}
        >
          {desk.camera === 'capturing' ? caseCopy.desk.capturing : caseCopy.desk.capture}
        </Button>
      )}
    </Panel>
  );
}

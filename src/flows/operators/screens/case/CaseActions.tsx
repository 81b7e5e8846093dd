import { selectCase, selectDesk } from '../../../../../machines/operators/operators.selectors';
import { caseCopy } from '../../../../copy/es.operators';
import { Button } from '../../../../components/Button';
import { Muted, Stack } from '../../../../components/Page';
import { CaseActor } from '../../operators.context';
import { Actions } from '../parts';
import { DeskMatch } from './DeskMatch';

/** The decision's buttons (only for the operator who holds the case). */
export function CaseActions() {
  const view = CaseActor.useSelector(selectCase);
  const desk = CaseActor.useSelector(selectDesk);
  const { send } = CaseActor.useActorRef();
  const d = view.detail;
  const remoteBlocked = view.needsCard || view.needsSelfie;
  return (
    <section aria-label={caseCopy.actions}>
      <Stack>
        {d?.kind === 'centro' && desk.match ? <DeskMatch /> : null}
        {view.needsDeskPhoto ? (
          <Muted id="needs-desk-photo">{caseCopy.needsDeskPhoto}</Muted>
        ) : null}
        {view.needsCard ? <Muted id="needs-card">{caseCopy.needsCard}</Muted> : null}
        {view.needsSelfie ? <Muted id="needs-selfie">{caseCopy.needsSelfie}</Muted> : null}
        {view.canDecide && view.needsSecondApproval && !view.needsCard ? (
          <Muted>{caseCopy.needsSecondApproval}</Muted>
        ) : null}
        {view.canDecide ? (
          <Actions>
            {d?.kind === 'centro' ? (
              <Button type="button" onClick={() => send({ type: 'desk.start' })}>
                {caseCopy.desk.start}
              </Button>
            ) : null}
            <Button
              type="button"
              disabled={!view.canApprove}
              // Not approvable at a distance: 'Pedir que repita' is the way on, not 'Aprobar'.
              $variant={remoteBlocked ? 'secondary' : 'primary'}
              aria-describedby={
                view.needsCard
                  ? 'needs-card'
                  : view.needsSelfie
                    ? 'needs-selfie'
                    : view.needsDeskPhoto
                      ? 'needs-desk-photo'
                      : undefined
              }
              onClick={() => send({ type: 'approve.start' })}
            >
              {caseCopy.approve}
            </Button>
            <Button
              type="button"
              $variant="secondary"
              onClick={() => send({ type: 'reject.start' })}
            >
              {caseCopy.reject}
            </Button>
            {view.canRepeat ? (
              <Button
                type="button"
                $variant={remoteBlocked ? 'primary' : 'secondary'}
                onClick={() => send({ type: 'repeat.start' })}
              >
                {caseCopy.repeat}
              </Button>
            ) : null}
            <Button
              type="button"
              $variant="secondary"
              onClick={() => send({ type: 'case.release' })}
            >
              {caseCopy.release}
            </Button>
          </Actions>
        ) : null}
        <Button type="button" $variant="secondary" onClick={() => send({ type: 'case.close' })}>
          {caseCopy.backToQueue}
        </Button>
      </Stack>
    </section>
  );
}

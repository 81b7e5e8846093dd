import { selectCase } from '../../../../../machines/operators/operators.selectors';
import { caseCopy, operadorTerms } from '../../../../copy/es.operators';
import { Button } from '../../../../components/Button';
import { Muted } from '../../../../components/Page';
import { CaseActor } from '../../operators.context';
import { Panel, TypedMark } from '../parts';

/** The approval's confirmation: which version of the case, and which fields nobody read. */
export function ApprovePanel() {
  const { version, typedFields } = CaseActor.useSelector(selectCase);
  const { send } = CaseActor.useActorRef();
  return (
    <Panel
      id="approve-title"
      title={caseCopy.approveConfirm.title}
      onCancel={() => send({ type: 'action.cancel' })}
    >
      <Muted>{caseCopy.approveConfirm.body}</Muted>
      {typedFields.length ? (
        <p>
          <TypedMark>{caseCopy.origins.typed}</TypedMark>{' '}
          {caseCopy.approveConfirm.typed(
            typedFields.map((f) => operadorTerms.fields[f].toLowerCase()).join(', '),
          )}
        </p>
      ) : null}
      {version ? <Muted>{caseCopy.version(version)}</Muted> : null}
      <Button type="button" onClick={() => send({ type: 'approve.confirm' })}>
        {caseCopy.approveConfirm.confirm}
      </Button>
    </Panel>
  );
}

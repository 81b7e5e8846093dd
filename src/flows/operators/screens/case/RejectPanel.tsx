import { selectRejection, NOTE_MAX } from '../../../../../machines/operators/operators.selectors';
import { type RejectReason } from '../../../../../machines/operators/operators.types';
import { caseCopy, operadorTerms } from '../../../../copy/es.operators';
import { Button } from '../../../../components/Button';
import { SelectField } from '../../../../components/SelectField';
import { TextField } from '../../../../components/TextField';
import { CaseActor } from '../../operators.context';
import { Panel } from '../parts';

/** 'Rechazar': a reason from the list and a note, then the confirmation. */
export function RejectPanel() {
  const { rejection, canConfirm, reasons } = CaseActor.useSelector(selectRejection);
  const { send } = CaseActor.useActorRef();
  return (
    <Panel
      id="reject-title"
      title={caseCopy.rejectForm.title}
      onCancel={() => send({ type: 'action.cancel' })}
    >
      <SelectField
        label={caseCopy.rejectForm.reason}
        value={rejection.reason ?? ''}
        placeholder={caseCopy.rejectForm.placeholder}
        options={reasons.map((r) => ({ value: r, label: operadorTerms.rejectReasons[r] }))}
        onValueChange={(value) =>
          send({ type: 'reject.change', reason: value ? (value as RejectReason) : null })
        }
      />
      <TextField
        label={caseCopy.rejectForm.note}
        value={rejection.note}
        maxLength={NOTE_MAX}
        onValueChange={(note) => send({ type: 'reject.change', note })}
      />
      <Button type="button" disabled={!canConfirm} onClick={() => send({ type: 'reject.confirm' })}>
        {caseCopy.rejectForm.confirm}
      </Button>
    </Panel>
  );
}

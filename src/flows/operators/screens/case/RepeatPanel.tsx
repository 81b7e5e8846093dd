import styled from 'styled-components';
import { selectRepeat } from '../../../../../machines/operators/operators.selectors';
import { CASE_STEPS } from '../../../../../machines/operators/operators.types';
import { caseCopy, operadorTerms } from '../../../../copy/es.operators';
import { Button } from '../../../../components/Button';
import { CaseActor } from '../../operators.context';
import { Panel } from '../parts';

const Steps = styled.fieldset`
  border: none;
  margin: 0;
  padding: 0;
  display: flex;
  gap: 16px;
  flex-wrap: wrap;
  legend {
    font-weight: 600;
    margin-bottom: 8px;
  }
  label {
    display: inline-flex;
    gap: 6px;
    align-items: center;
    min-height: 44px;
  }
`;

/** 'Pedir que repita': the one step the patient does again. */
export function RepeatPanel() {
  const { step, canConfirm } = CaseActor.useSelector(selectRepeat);
  const { send } = CaseActor.useActorRef();
  return (
    <Panel
      id="repeat-title"
      title={caseCopy.repeatForm.title}
      onCancel={() => send({ type: 'action.cancel' })}
    >
      <Steps>
        <legend>{caseCopy.repeatForm.legend}</legend>
        {CASE_STEPS.map((s) => (
          <label key={s}>
            <input
              type="radio"
              name="repeat-step"
              value={s}
              checked={step === s}
              onChange={() => send({ type: 'repeat.choose', step: s })}
            />
            {operadorTerms.steps[s]}
          </label>
        ))}
      </Steps>
      <Button type="button" disabled={!canConfirm} onClick={() => send({ type: 'repeat.confirm' })}>
        {caseCopy.repeatForm.confirm}
      </Button>
    </Panel>
  );
}

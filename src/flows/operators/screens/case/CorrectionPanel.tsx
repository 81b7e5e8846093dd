import {
  CORRECTION_LIMITS,
  selectCorrection,
} from '../../../../../machines/operators/operators.selectors';
import { errorText } from '../../../../copy/es';
import { caseCopy, operador, operadorTerms } from '../../../../copy/es.operators';
import { Button } from '../../../../components/Button';
import { ErrorBanner } from '../../../../components/ErrorBanner';
import { Stack } from '../../../../components/Page';
import { SelectField } from '../../../../components/SelectField';
import { TextField } from '../../../../components/TextField';
import { CaseActor } from '../../operators.context';
import { Panel } from '../parts';

/**
 * 'Corregir': the value as its field takes it (a list for sex, nationality and marital status;
 * digits for the number; the card's date) and the reason. What is wrong is said under the field it
 * is about, before anything is sent; a refusal of the server in the form.
 */
export function CorrectionPanel() {
  const { correction, input, choices, problem, refusal, saving } =
    CaseActor.useSelector(selectCorrection);
  const { send } = CaseActor.useActorRef();
  if (!correction || !input) return null;
  const field = correction.field;
  const valueError =
    problem === 'value'
      ? caseCopy.correction.invalid[field]
      : problem === 'unchanged'
        ? caseCopy.correction.unchanged
        : null;
  const reasonError = problem === 'reason' ? caseCopy.correction.reasonMissing : null;
  const refused = errorText(refusal, operador.errors);
  const onValue = (value: string) => send({ type: 'correction.change', value });
  return (
    <Panel
      id="correction-title"
      title={caseCopy.correctField(operadorTerms.fields[field])}
      cancelDisabled={saving}
      onCancel={() => send({ type: 'action.cancel' })}
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          send({ type: 'correction.submit' });
        }}
      >
        <Stack>
          {refused ? <ErrorBanner message={refused} /> : null}
          {choices ? (
            <SelectField
              label={caseCopy.correction.value}
              value={correction.value}
              placeholder={caseCopy.correction.choose}
              options={choices.map((c) => ({
                value: c,
                label: field === 'Gender' ? (caseCopy.sexes[c] ?? c) : c,
              }))}
              disabled={saving}
              error={valueError}
              onValueChange={onValue}
            />
          ) : (
            <TextField
              label={caseCopy.correction.value}
              value={correction.value}
              hint={caseCopy.correction.hints[field]}
              maxLength={CORRECTION_LIMITS.value[input === 'choice' ? 'text' : input]}
              inputMode={input === 'number' ? 'numeric' : undefined}
              autoComplete="off"
              disabled={saving}
              error={valueError}
              errorLive
              onValueChange={onValue}
            />
          )}
          <TextField
            label={caseCopy.correction.reason}
            value={correction.reason}
            hint={caseCopy.correction.reasonHint}
            maxLength={CORRECTION_LIMITS.reason}
            disabled={saving}
            error={reasonError}
            errorLive
            onValueChange={(reason) => send({ type: 'correction.change', reason })}
          />
          <Button type="submit" disabled={saving}>
            {saving ? caseCopy.correction.saving : caseCopy.correction.save}
          </Button>
        </Stack>
      </form>
    </Panel>
  );
}

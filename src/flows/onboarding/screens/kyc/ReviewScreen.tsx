import { useSelector } from '@xstate/react';
import styled from 'styled-components';
import type { ActorRefFrom } from 'xstate';
import type { KycMachine } from '../../../../../machines/kyc/kyc.machine';
import { selectReviewClaimView, selectReviewView } from '../../../../../machines/kyc/kyc.selectors';
import { Button, SubmitButton } from '../../../../components/Button';
import { TextField } from '../../../../components/TextField';
import { ErrorBanner } from '../../../../components/ErrorBanner';
import { errorText, kyc, kycErrors } from '../../../../copy/es.kyc';
import { theme } from '../../../../theme/theme';
import { Actions, Intro } from '../shared.styles';
import { KycLayout } from './KycLayout';

const copy = kyc.review;
const fields = [
  'apellido',
  'nombre',
  'numeroDocumento',
  'fechaNacimiento',
  'sexo',
  'nacionalidad',
  'estado_civil',
] as const;

const List = styled.dl`
  margin: 0;
  display: grid;
  grid-template-columns: minmax(0, 1fr) minmax(0, 1.4fr);
  gap: 8px 12px;
  dt {
    color: ${theme.colors.muted};
  }
  dd {
    margin: 0;
    font-weight: 600;
    overflow-wrap: anywhere;
  }
`;

const Choices = styled.fieldset`
  margin: 0;
  padding: 0;
  border: 0;
  display: flex;
  flex-direction: column;
  gap: 8px;
  legend {
    font-weight: 600;
    margin-bottom: 8px;
  }
  label {
    display: flex;
    align-items: center;
    gap: 10px;
    min-height: 44px;
  }
`;

/**
 * 'Hay un dato mal' (issue 43 item 7): the field read wrong and, optionally, what it should say,
 * sent to a person (a review case carrying the patient's claim).
 */
function ClaimForm({ kyc }: { kyc: ActorRefFrom<KycMachine> }) {
  const view = useSelector(kyc, selectReviewClaimView);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        kyc.send({ type: 'claim.send' });
      }}
    >
      <Intro>{copy.claimIntro}</Intro>
      <Choices>
        <legend>{copy.claimTitle}</legend>
        {view.fields.map((field) => (
          <label key={field}>
            <input
              type="radio"
              name="claim-field"
              checked={view.field === field}
              onChange={() => kyc.send({ type: 'claim.field', field })}
            />
            {copy.claimFields[field]}
          </label>
        ))}
      </Choices>
      <TextField
        label={copy.claimSaysLabel}
        value={view.says}
        maxLength={view.saysMax}
        onValueChange={(value) => kyc.send({ type: 'claim.says', value })}
      />
      <Actions>
        <SubmitButton disabled={!view.canSend} reason={copy.claimMissing}>
          {copy.claimSend}
        </SubmitButton>
        <Button
          type="button"
          $variant="secondary"
          onClick={() => kyc.send({ type: 'claim.cancel' })}
        >
          {copy.claimCancel}
        </Button>
      </Actions>
    </form>
  );
}

/**
 * 'Verificá tus datos': the extracted data, read-only, as the card prints it (FEMENINO, PARAGUAYA,
 * 2.719.564, 08/10/1955), with 'Reintentar', 'Continuar' and 'Hay un dato mal'.
 */
export function ReviewScreen({ kyc }: { kyc: ActorRefFrom<KycMachine> }) {
  const view = useSelector(kyc, selectReviewView);
  if (view.claiming)
    return (
      <KycLayout title={copy.title} busy={view.busy}>
        <ClaimForm kyc={kyc} />
      </KycLayout>
    );
  const error = errorText(view.error, kycErrors);
  // The sex code named as the card prints it; the nationality comes in words from the server.
  const shown = view.data && {
    ...view.data,
    sexo: copy.sexes[view.data.sexo] ?? view.data.sexo,
  };
  return (
    <KycLayout title={copy.title} busy={view.busy}>
      <Intro>{copy.intro}</Intro>
      <List>
        {fields.map((f) => (
          <div key={f} style={{ display: 'contents' }}>
            <dt>{copy.labels[f]}</dt>
            <dd>{shown?.[f] || copy.empty}</dd>
          </div>
        ))}
      </List>
      {error ? <ErrorBanner message={error} /> : null}
      <Actions>
        <Button
          type="button"
          disabled={!view.canConfirm}
          onClick={() => kyc.send({ type: 'review.confirm' })}
        >
          {copy.confirm}
        </Button>
        <Button
          type="button"
          $variant="secondary"
          disabled={!view.canRetry}
          onClick={() => kyc.send({ type: 'review.retry' })}
        >
          {view.busy ? copy.rejecting : copy.retry}
        </Button>
        {view.canClaim ? (
          <Button
            type="button"
            $variant="secondary"
            onClick={() => kyc.send({ type: 'review.claim' })}
          >
            {copy.claim}
          </Button>
        ) : null}
      </Actions>
    </KycLayout>
  );
}

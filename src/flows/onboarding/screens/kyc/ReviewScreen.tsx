import { useSelector } from '@xstate/react';
import styled from 'styled-components';
import type { ActorRefFrom } from 'xstate';
import type { KycMachine } from '../../../../../machines/kyc/kyc.machine';
import { selectReviewView } from '../../../../../machines/kyc/kyc.selectors';
import { Button } from '../../../../components/Button';
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

/**
 * 'Verificá tus datos': the extracted data, read-only, as the card prints it (FEMENINO, PARAGUAYA,
 * 2.719.564, 08/10/1955), with 'Reintentar' and 'Continuar'.
 */
export function ReviewScreen({ kyc }: { kyc: ActorRefFrom<KycMachine> }) {
  const view = useSelector(kyc, selectReviewView);
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
      </Actions>
    </KycLayout>
  );
}

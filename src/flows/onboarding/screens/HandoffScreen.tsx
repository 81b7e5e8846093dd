import { useSelector } from '@xstate/react';
import styled from 'styled-components';
import type { ActorRefFrom } from 'xstate';
import type { HandoffMachine } from '../../../../machines/onboarding/handoff.machine';
import { selectHandoffView } from '../../../../machines/onboarding/onboarding.selectors';
import { Button } from '../../../components/Button';
import { ErrorBanner } from '../../../components/ErrorBanner';
import { Muted } from '../../../components/Page';
import {
  errorText,
  formatCelular,
  onboarding,
  onboardingErrors,
} from '../../../copy/es.onboarding';
import { theme } from '../../../theme/theme';
import { OnboardingActor } from '../onboarding.context';
import { KycLayout } from './kyc/KycLayout';
import { Actions, Intro } from './shared.styles';

const copy = onboarding.handoff;

const Stage = styled.p`
  margin: 0;
  font-weight: 600;
  color: ${theme.colors.text};
`;

/**
 * 'Seguí en tu celular' on the first device: the SMS with the link is on its way or sent, how far
 * the phone got (read out as it changes), a new link, or this device's camera after all (and
 * KycLayout's 'Cancelar').
 */
export function HandoffScreen({ handoff }: { handoff: ActorRefFrom<HandoffMachine> }) {
  const view = useSelector(handoff, selectHandoffView);
  const wizard = OnboardingActor.useActorRef();
  const error = errorText(view.error, onboardingErrors);
  return (
    <KycLayout title={copy.title} busy={view.sending}>
      {view.sending ? <Muted role="status">{copy.sending}</Muted> : null}
      {view.waiting && view.phone ? (
        <>
          <Intro>{copy.intro(formatCelular(view.phone))}</Intro>
          {view.expiresInMinutes ? <Muted>{copy.expiry(view.expiresInMinutes)}</Muted> : null}
          <Stage role="status" aria-live="polite" data-testid="handoff-stage">
            {view.stage ? copy.stages[view.stage] : null}
          </Stage>
        </>
      ) : null}
      {error ? <ErrorBanner message={error} /> : null}
      <Actions>
        {view.canResend ? (
          <Button
            type="button"
            $variant="secondary"
            onClick={() => handoff.send({ type: 'handoff.resend' })}
          >
            {copy.resend}
          </Button>
        ) : null}
        {view.canUseThisDevice ? (
          <Button
            type="button"
            $variant="secondary"
            onClick={() => wizard.send({ type: 'handoff.cancel' })}
          >
            {copy.useThisDevice}
          </Button>
        ) : null}
      </Actions>
    </KycLayout>
  );
}

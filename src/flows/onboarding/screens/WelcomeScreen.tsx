import { Button } from '../../../components/Button';
import { Heading } from '../../../components/Heading';
import { Page, Stack } from '../../../components/Page';
import { onboarding } from '../../../copy/es.onboarding';
import { OnboardingActor } from '../onboarding.context';
import { Actions, Intro, Tips } from './shared.styles';

const copy = onboarding.welcome;

/** Step 3 '¡Un par de fotos y ya!' (docs/decisions.md): four tips, 'Siguiente' to KYC, 'Cancelar' home. */
export function WelcomeScreen() {
  const { send } = OnboardingActor.useActorRef();
  return (
    <Page>
      <Stack>
        <Heading focusOnMount>{copy.title}</Heading>
        <Intro>{copy.intro}</Intro>
        <Tips>
          {copy.tips.map((tip) => (
            <li key={tip}>{tip}</li>
          ))}
        </Tips>
        <Actions>
          <Button type="button" onClick={() => send({ type: 'welcome.next' })}>
            {copy.next}
          </Button>
          <Button type="button" $variant="secondary" onClick={() => send({ type: 'flow.back' })}>
            {onboarding.cancel}
          </Button>
        </Actions>
      </Stack>
    </Page>
  );
}

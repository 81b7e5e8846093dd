import { AppLinkButton } from '../../../components/Button';
import { Heading } from '../../../components/Heading';
import { Page, Stack } from '../../../components/Page';
import { onboarding } from '../../../copy/es.onboarding';
import { Intro } from './shared.styles';

/** The wizard's two ends with a way to log in: 'Onboarding Completo' (step 5) and 'El paciente ya existe'. */
function OutcomeScreen({ title, body }: { title: string; body: string }) {
  return (
    <Page>
      <Stack>
        <Heading focusOnMount>{title}</Heading>
        <Intro>{body}</Intro>
        <AppLinkButton to="/login">{onboarding.goToLogin}</AppLinkButton>
      </Stack>
    </Page>
  );
}

export function CompleteScreen() {
  return <OutcomeScreen title={onboarding.complete.title} body={onboarding.complete.body} />;
}

export function PatientExistsScreen() {
  return (
    <OutcomeScreen title={onboarding.patientExists.title} body={onboarding.patientExists.body} />
  );
}

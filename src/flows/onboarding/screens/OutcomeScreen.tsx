import { AppLinkButton } from '../../../components/Button';
import { Heading } from '../../../components/Heading';
import { AppLink } from '../../../components/Navigation';
import { Page, Stack } from '../../../components/Page';
import { onboarding } from '../../../copy/es.onboarding';
import { Center, Intro } from './shared.styles';

/** The wizard's two ends with a way to log in: 'Onboarding Completo' (step 5) and 'El paciente ya existe'. */
function OutcomeScreen({
  title,
  body,
  forgotPin = false,
}: {
  title: string;
  body: string;
  forgotPin?: boolean;
}) {
  return (
    <Page>
      <Stack>
        <Heading focusOnMount>{title}</Heading>
        <Intro>{body}</Intro>
        <AppLinkButton to="/login">{onboarding.goToLogin}</AppLinkButton>
        {forgotPin ? (
          <Center>
            <AppLink to="/recuperar-pin">{onboarding.forgotPin}</AppLink>
          </Center>
        ) : null}
      </Stack>
    </Page>
  );
}

export function CompleteScreen() {
  return <OutcomeScreen title={onboarding.complete.title} body={onboarding.complete.body} />;
}

/** A patient who already exists may have forgotten the PIN: recovery is one link away. */
export function PatientExistsScreen() {
  return (
    <OutcomeScreen
      title={onboarding.patientExists.title}
      body={onboarding.patientExists.body}
      forgotPin
    />
  );
}

import { Heading } from '../../../components/Heading';
import { Muted, Page, Stack } from '../../../components/Page';
import { onboarding } from '../../../copy/es.onboarding';

const copy = onboarding.leaving;

/**
 * A back or cancel with a registration (issue 43 item 8): while this browser forgets it (one short
 * call), then the landing page. Nothing to press: the patient already chose to leave.
 */
export function LeavingScreen() {
  return (
    <Page>
      <Stack aria-busy>
        <Heading focusOnMount>{copy.title}</Heading>
        <Muted role="status">{copy.status}</Muted>
      </Stack>
    </Page>
  );
}

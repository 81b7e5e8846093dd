import { AppLinkButton } from '../../../components/Button';
import { Heading } from '../../../components/Heading';
import { Muted, Page, Stack } from '../../../components/Page';
import { recovery } from '../../../copy/es.recovery';

const copy = recovery.done;

/** Step 3: '¡PIN actualizado correctamente!' and 'Volver al login' (inside the app). */
export function DoneScreen() {
  return (
    <Page>
      <Stack>
        <Heading focusOnMount>{copy.title}</Heading>
        <Muted>{copy.body}</Muted>
        <AppLinkButton to="/login">{copy.toLogin}</AppLinkButton>
      </Stack>
    </Page>
  );
}

import { Heading } from '../components/Heading';
import { AppLink } from '../components/Navigation';
import { Muted, Page, Stack } from '../components/Page';
import { notFound } from '../copy/es';

export default function NotFoundPage() {
  return (
    <Page>
      <Stack>
        <Heading focusOnMount>{notFound.title}</Heading>
        <Muted>{notFound.body}</Muted>
        <AppLink to="/">{notFound.home}</AppLink>
      </Stack>
    </Page>
  );
}

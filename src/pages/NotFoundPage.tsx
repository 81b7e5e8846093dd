import { Link } from 'wouter';
import { Heading } from '../components/Heading';
import { Muted, Page, Stack } from '../components/Page';
import { notFound } from '../copy/es';

export default function NotFoundPage() {
  return (
    <Page>
      <Stack>
        <Heading focusOnMount>{notFound.title}</Heading>
        <Muted>{notFound.body}</Muted>
        <Link href="/">{notFound.home}</Link>
      </Stack>
    </Page>
  );
}

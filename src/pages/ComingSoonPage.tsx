import { BackLink } from '../components/BackLink';
import { Heading } from '../components/Heading';
import { Header, Muted, Page, Stack } from '../components/Page';
import { common, placeholderFlows } from '../copy/es';

/** The lazy routes whose flows come with their own issues (face authentication). */
export function ComingSoonPage({ title, back }: { title: string; back: string }) {
  return (
    <Page>
      <Header>
        <BackLink to={back} label={common.back} />
      </Header>
      <Stack>
        <Heading focusOnMount>{title}</Heading>
        <Muted role="status">{placeholderFlows.soon}</Muted>
      </Stack>
    </Page>
  );
}

export const FaceLoginPage = () => (
  <ComingSoonPage title={placeholderFlows.faceLoginTitle} back="/" />
);

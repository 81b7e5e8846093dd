import { Link } from 'wouter';
import styled from 'styled-components';
import { LinkButton } from '../components/Button';
import { Heading } from '../components/Heading';
import { Logo } from '../components/Logo';
import { Muted, Page, Stack } from '../components/Page';
import { common, landing } from '../copy/es';

const Brand = styled.div`
  display: flex;
  justify-content: center;
`;

const Small = styled.p`
  text-align: center;
  margin: 0;
  font-size: 0.875rem;
`;

export default function LandingPage() {
  return (
    <Page>
      <Stack $gap={20}>
        <Brand>
          <Logo size={96} title={common.appName} />
        </Brand>
        <Heading>{landing.title}</Heading>
        <Muted>{landing.subtitle}</Muted>
        <LinkButton as={Link} href="/onboarding">
          {landing.register}
        </LinkButton>
        <LinkButton as={Link} href="/login" $variant="secondary">
          {landing.login}
        </LinkButton>
        <Small>
          <Link href="/tyc">{landing.terms}</Link>
        </Small>
      </Stack>
    </Page>
  );
}

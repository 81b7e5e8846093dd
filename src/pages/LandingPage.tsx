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

/**
 * Plain links (full page loads): the landing page is prerendered and ships with no JavaScript
 * (scripts/prerender.ts), and every page it links to is prerendered too.
 */
export default function LandingPage() {
  return (
    <Page>
      <Stack $gap={20}>
        <Brand>
          <Logo size={96} title={common.appName} />
        </Brand>
        <Heading>{landing.title}</Heading>
        <Muted>{landing.subtitle}</Muted>
        <LinkButton href="/onboarding">{landing.register}</LinkButton>
        <LinkButton href="/login" $variant="secondary">
          {landing.login}
        </LinkButton>
        <Small>
          <a href="/tyc">{landing.terms}</a>
        </Small>
      </Stack>
    </Page>
  );
}

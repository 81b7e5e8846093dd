import styled from 'styled-components';
import { LinkButton } from '../components/Button';
import { Heading } from '../components/Heading';
import { Muted, Page, Stack } from '../components/Page';
import { landing } from '../copy/es';

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
    <Page logoSize={96}>
      <Stack $gap={20}>
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

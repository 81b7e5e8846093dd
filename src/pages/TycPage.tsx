import styled from 'styled-components';
import { BackLink } from '../components/BackLink';
import { Heading } from '../components/Heading';
import { Brand, Header, Main, Muted } from '../components/Page';
import { tyc } from '../copy/es.tyc';
import { theme } from '../theme/theme';

const Article = styled.article`
  width: 100%;
  max-width: 760px;
  background: ${theme.colors.surface};
  border-radius: ${theme.radius}px;
  padding: 24px 20px;
  h2 {
    font-size: 1.125rem;
    margin: 24px 0 8px;
  }
  p {
    margin: 0 0 12px;
  }
`;

export default function TycPage() {
  return (
    <Main>
      <Brand />
      <Article>
        <Header>
          <BackLink to="/" label={tyc.back} />
        </Header>
        <Heading>{tyc.title}</Heading>
        <Muted>{tyc.updated}</Muted>
        <Muted>{tyc.versions}</Muted>
        {tyc.sections.map((section) => (
          <section key={section.title}>
            <h2>{section.title}</h2>
            {section.paragraphs.map((p) => (
              <p key={p}>{p}</p>
            ))}
          </section>
        ))}
      </Article>
    </Main>
  );
}

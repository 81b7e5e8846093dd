import styled from 'styled-components';
import { BackLink } from '../components/BackLink';
import { Heading } from '../components/Heading';
import { Header, Main, Muted } from '../components/Page';
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

const Notice = styled.p`
  padding: 10px 12px;
  border-radius: ${theme.radius}px;
  background: ${theme.colors.infoBg};
`;

export default function TycPage() {
  return (
    <Main>
      <Article>
        <Header>
          <BackLink to="/" label={tyc.back} />
        </Header>
        <Heading>{tyc.title}</Heading>
        <Notice>{tyc.templateNotice}</Notice>
        <Muted>{tyc.updated}</Muted>
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

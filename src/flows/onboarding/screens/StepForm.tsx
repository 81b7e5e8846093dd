import type { FormEvent, ReactNode } from 'react';
import { BackButton } from '../../../components/BackLink';
import { Heading } from '../../../components/Heading';
import { Header, Page, Stack } from '../../../components/Page';
import { onboarding } from '../../../copy/es.onboarding';
import { Intro } from './shared.styles';

/**
 * A wizard step with a form: back arrow (home), the title that takes focus when the step appears,
 * the intro line, then the fields. Submitting sends `onSubmit` without reloading the page.
 */
export function StepForm({
  title,
  intro,
  onBack,
  backDisabled = false,
  onSubmit,
  busy = false,
  children,
}: {
  title: string;
  intro: string;
  onBack: () => void;
  backDisabled?: boolean;
  onSubmit: () => void;
  busy?: boolean;
  children: ReactNode;
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <Page>
      <Header>
        <BackButton label={onboarding.backHome} onClick={onBack} disabled={backDisabled} />
      </Header>
      <form onSubmit={submit} noValidate aria-busy={busy}>
        <Stack>
          <Heading focusOnMount>{title}</Heading>
          <Intro>{intro}</Intro>
          {children}
        </Stack>
      </form>
    </Page>
  );
}

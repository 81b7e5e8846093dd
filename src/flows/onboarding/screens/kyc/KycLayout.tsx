import type { ReactNode } from 'react';
import { Button } from '../../../../components/Button';
import { Heading } from '../../../../components/Heading';
import { Page, Stack } from '../../../../components/Page';
import { onboarding } from '../../../../copy/es.onboarding';
import { OnboardingActor } from '../../onboarding.context';

/** A KYC sub-step: its heading (focused when it appears), its content and 'Cancelar' (home). */
export function KycLayout({
  title,
  busy = false,
  children,
}: {
  title: string;
  busy?: boolean;
  children: ReactNode;
}) {
  const wizard = OnboardingActor.useActorRef();
  return (
    <Page>
      <Stack aria-busy={busy}>
        <Heading focusOnMount>{title}</Heading>
        {children}
        <Button
          type="button"
          $variant="secondary"
          onClick={() => wizard.send({ type: 'flow.back' })}
        >
          {onboarding.cancel}
        </Button>
      </Stack>
    </Page>
  );
}

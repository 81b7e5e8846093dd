import type { ReactNode } from 'react';
import styled from 'styled-components';
import { Button } from '../../../../components/Button';
import { Heading } from '../../../../components/Heading';
import { Muted, Page, Stack } from '../../../../components/Page';
import { onboarding } from '../../../../copy/es.onboarding';
import { OnboardingActor } from '../../onboarding.context';
import { theme } from '../../../../theme/theme';

/**
 * Texts on the page's own white, positioned above what a step paints under them: the selfie's
 * challenge fills the screen around the oval with a colour (issue 31), and every text stays
 * readable on its panel.
 */
export const Panel = styled.div`
  position: relative;
  z-index: 1;
  display: flex;
  flex-direction: column;
  gap: 16px;
  /* The white reaches a little past the text, the layout unchanged. */
  padding: 8px 12px;
  margin: -8px -12px;
  background: ${theme.colors.surface};
  border-radius: ${theme.radius}px;
`;

/**
 * A KYC sub-step: its heading (focused when it appears), its content and 'Cancelar' (home); a
 * screen whose case stays open when the patient goes says so beside the way out (`leave`: the
 * button's label and the note, issue 43 item 8).
 */
export function KycLayout({
  title,
  busy = false,
  leave,
  children,
}: {
  title: string;
  busy?: boolean;
  leave?: { label: string; note: string };
  children: ReactNode;
}) {
  const wizard = OnboardingActor.useActorRef();
  return (
    <Page>
      <Stack aria-busy={busy}>
        <Panel>
          <Heading focusOnMount>{title}</Heading>
        </Panel>
        {children}
        <Panel>
          {leave ? <Muted>{leave.note}</Muted> : null}
          <Button
            type="button"
            $variant="secondary"
            onClick={() => wizard.send({ type: 'flow.back' })}
          >
            {leave?.label ?? onboarding.cancel}
          </Button>
        </Panel>
      </Stack>
    </Page>
  );
}

import { useEffect, useRef, type ReactNode } from 'react';
import styled from 'styled-components';
import { caseCopy } from '../../../copy/es.operators';
import { Button } from '../../../components/Button';
import { Muted, Stack } from '../../../components/Page';
import { Spinner } from '../../../components/Spinner';
import { theme } from '../../../theme/theme';

/** The back office's shared pieces (queue and case screens). */
export const Badge = styled.span`
  display: inline-block;
  padding: 2px 8px;
  border-radius: 999px;
  background: ${theme.colors.infoBg};
  color: ${theme.colors.info};
  font-weight: 600;
  font-size: 0.875rem;
`;

/** A value typed by an operator stands out (the fields, the approval's confirmation). */
export const TypedMark = styled(Badge)`
  background: ${theme.colors.errorBg};
  color: ${theme.colors.error};
`;

/** Terms and their values in two columns (the case's summary, a registered patient's record). */
export const Terms = styled.dl`
  margin: 0;
  display: grid;
  grid-template-columns: max-content 1fr;
  gap: 4px 12px;
  dt {
    font-weight: 600;
  }
  dd {
    margin: 0;
  }
`;

/** A row of buttons that wraps on narrow screens. */
export const Actions = styled.div<{ $min?: number }>`
  display: grid;
  gap: 12px;
  grid-template-columns: repeat(auto-fit, minmax(${({ $min = 180 }) => $min}px, 1fr));
`;

export const H2 = styled.h2`
  font-size: 1.125rem;
  margin: 0;
  &:focus {
    outline: none;
  }
`;

const Box = styled.section`
  border: 2px solid ${theme.colors.primary};
  border-radius: ${theme.radius}px;
  padding: 16px;
`;

/** A wait the operator sees, announced politely. */
export function Busy({ children }: { children: ReactNode }) {
  return (
    <Muted role="status">
      <Spinner /> {children}
    </Muted>
  );
}

/**
 * A panel of the case (named by its title) with its own content and 'Cancelar' at the end. Its
 * title takes the focus when it opens: the panel opens below the evidence, away from the button
 * that opened it.
 */
export function Panel({
  id,
  title,
  onCancel,
  cancelDisabled = false,
  children,
}: {
  id: string;
  title: string;
  onCancel: () => void;
  cancelDisabled?: boolean;
  children: ReactNode;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Box aria-labelledby={id}>
      <Stack>
        <H2 id={id} ref={heading} tabIndex={-1}>
          {title}
        </H2>
        {children}
        <Button type="button" $variant="secondary" disabled={cancelDisabled} onClick={onCancel}>
          {caseCopy.cancel}
        </Button>
      </Stack>
    </Box>
  );
}

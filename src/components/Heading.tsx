import { useEffect, useRef, type ReactNode } from 'react';
import styled from 'styled-components';

const H1 = styled.h1`
  font-size: 1.5rem;
  line-height: 1.25;
  margin: 0;
  &:focus {
    outline: none;
  }
`;

/**
 * A page or step title. With `focusOnMount` it takes focus when it appears, so screen reader and
 * keyboard users land on the new step's title.
 */
export function Heading({
  children,
  focusOnMount = false,
}: {
  children: ReactNode;
  focusOnMount?: boolean;
}) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusOnMount) ref.current?.focus();
  }, [focusOnMount]);
  return (
    <H1 ref={ref} tabIndex={-1}>
      {children}
    </H1>
  );
}

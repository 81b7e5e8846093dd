import { useEffect, useRef, useState, type ReactNode } from 'react';
import styled from 'styled-components';
import { useHydrated } from './useHydrated';

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
 * keyboard users land on the new step's title. When it arrives in prerendered HTML, only if nothing
 * has the focus yet: the patient may already be typing in a field of that page, and taking the
 * focus away when React hydrates would send the rest of their keystrokes to the title.
 */
export function Heading({
  children,
  focusOnMount = false,
}: {
  children: ReactNode;
  focusOnMount?: boolean;
}) {
  const ref = useRef<HTMLHeadingElement>(null);
  // useHydrated is false only in the render that hydrates prerendered HTML: kept from the mount.
  const hydrated = useHydrated();
  const [clientMount] = useState(hydrated);
  useEffect(() => {
    const untouched = document.activeElement === null || document.activeElement === document.body;
    if (focusOnMount && (clientMount || untouched)) ref.current?.focus();
  }, [focusOnMount, clientMount]);
  return (
    <H1 ref={ref} tabIndex={-1}>
      {children}
    </H1>
  );
}

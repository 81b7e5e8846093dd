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
 * focus away when React hydrates would send the rest of their keystrokes to the title. With
 * `focusOnMount="client"`, only when it appears in a running app, never when it hydrates (/login:
 * the first Tab of its prerendered page reaches the back arrow). The screen asks this of the title
 * rather than calling useHydrated itself: that hook's value changes once hydration ends, and every
 * component that calls it renders again then, synchronously (a store's update is never sliced);
 * here that is this title alone, not the whole screen (issue 43 item 16).
 */
export function Heading({
  children,
  focusOnMount = false,
}: {
  children: ReactNode;
  focusOnMount?: boolean | 'client';
}) {
  const ref = useRef<HTMLHeadingElement>(null);
  // useHydrated is false only in the render that hydrates prerendered HTML: kept from the mount.
  const hydrated = useHydrated();
  const [clientMount] = useState(hydrated);
  useEffect(() => {
    const untouched = document.activeElement === null || document.activeElement === document.body;
    const focus =
      focusOnMount === 'client' ? clientMount : focusOnMount && (clientMount || untouched);
    if (focus) ref.current?.focus();
  }, [focusOnMount, clientMount]);
  return (
    <H1 ref={ref} tabIndex={-1}>
      {children}
    </H1>
  );
}

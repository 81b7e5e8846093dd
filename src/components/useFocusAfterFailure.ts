import { useEffect, useRef } from 'react';

/**
 * After a failed submit (a wrong PIN or code, an invalid field, a refused send) the focus goes to
 * the first field to fix, never to <body>. `failures` is the machine's count of failed submits
 * (a selector's); each new one focuses `target()` once that render is on screen (fields disabled
 * while busy are enabled again by then). A count that was already there when the form mounted
 * (a restored snapshot, a story) moves nothing: the step's title keeps the focus.
 */
export function useFocusAfterFailure(
  failures: number,
  target: () => HTMLElement | null | undefined,
): void {
  const seen = useRef(failures);
  useEffect(() => {
    if (failures === seen.current) return;
    seen.current = failures;
    target()?.focus();
  });
}

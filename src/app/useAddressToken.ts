import { useEffect, useState } from 'react';

/**
 * A one-time token the address carries in its fragment (`#<token>`, `#activar=<token>`: never sent
 * to a server, never in a logged URL), read once as the page opens and then taken out of the address
 * bar and the history, so a back, a reload or a shared screen shows no token. `read` picks the
 * token out of the fragment (without its '#'); null when there is none (and on the server).
 */
export function useAddressToken(read: (fragment: string) => string | null): string | null {
  const [token] = useState(() =>
    typeof window === 'undefined' ? null : read(window.location.hash.replace(/^#/, '')) || null,
  );
  useEffect(() => {
    if (token === null) return;
    const { pathname, search } = window.location;
    window.history.replaceState(window.history.state, '', pathname + search);
  }, [token]);
  return token;
}

import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useAddressToken } from '../../src/app/useAddressToken';

/** Shows the token the hook read. */
function Reader({ read }: { read: (fragment: string) => string | null }) {
  const token = useAddressToken(read);
  return <p data-testid="token">{token ?? 'none'}</p>;
}

const activation = (fragment: string) => new URLSearchParams(fragment).get('activar');

describe('useAddressToken: a one-time token out of the address', () => {
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('reads the fragment once and takes it out of the address bar, keeping the query', () => {
    window.history.replaceState(null, '', '/ingreso-facial?modo=kiosco#activar=abc');
    const { rerender } = render(<Reader read={activation} />);
    expect(screen.getByTestId('token')).toHaveTextContent('abc');
    expect(window.location.hash).toBe('');
    expect(window.location.pathname + window.location.search).toBe('/ingreso-facial?modo=kiosco');
    // Later renders keep the token read at first, though the address no longer has it.
    rerender(<Reader read={activation} />);
    expect(screen.getByTestId('token')).toHaveTextContent('abc');
  });

  it('the whole fragment as the SMS link token; an address without one is left as it is', () => {
    window.history.replaceState(null, '', '/onboarding/celular#TOKEN-1');
    render(<Reader read={(fragment) => fragment} />);
    expect(screen.getByTestId('token')).toHaveTextContent('TOKEN-1');
    expect(window.location.href).toMatch(/\/onboarding\/celular$/);
  });

  it('no token: null, and the address untouched', () => {
    window.history.replaceState(null, '', '/ingreso-facial#otra=1');
    render(<Reader read={activation} />);
    expect(screen.getByTestId('token')).toHaveTextContent('none');
    expect(window.location.hash).toBe('#otra=1');
  });
});

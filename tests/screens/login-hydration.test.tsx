import { act, render, screen } from '@testing-library/react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { login as copy } from '../../src/copy/es';
import { LoginActor } from '../../src/flows/login/login.context';
import { LoginScreen } from '../../src/flows/login/LoginScreen';
import { loginMachine } from '../../machines/login/login.machine';

/** How many times the screen's fields rendered: they render again only when the screen does. */
const fields = vi.hoisted(() => ({ renders: 0 }));
vi.mock('../../src/components/TextField', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/components/TextField')>();
  return {
    ...original,
    TextField: (props: Parameters<typeof original.TextField>[0]) => {
      fields.renders++;
      return original.TextField(props);
    },
  };
});

const app = (
  <MemoryRouter initialEntries={['/login']}>
    <LoginActor.Provider logic={loginMachine}>
      <LoginScreen />
    </LoginActor.Provider>
  </MemoryRouter>
);

describe('/login hydrates without rendering the screen again (issue 43 item 16)', () => {
  it('the prerendered screen renders once as it hydrates; its title takes no focus', async () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(app);
    document.body.append(container);
    fields.renders = 0;
    const root = await act(async () => hydrateRoot(container, app));
    try {
      // Its two fields (the number and the PIN), each rendered once as it hydrates. A useHydrated
      // in the screen rendered all of it a second time as hydration ended (4), in one synchronous
      // task (the store's update is not sliced): most of /login's added Total Blocking Time.
      expect(fields.renders).toBe(2);
      expect(screen.getByRole('heading', { name: copy.title })).not.toHaveFocus();
    } finally {
      act(() => root.unmount());
      container.remove();
    }
  });

  it('shown in a running app (after a logout), its title takes the focus', () => {
    render(app);
    expect(screen.getByRole('heading', { name: copy.title })).toHaveFocus();
  });
});

import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import type { SessionResponse } from '../../contract/session';
import { sessionMachine } from '../../machines/session/session.machine';
import { dashboard, login } from '../../src/copy/es';
import { AuthRoutes } from '../../src/flows/session/AuthArea';
import { SessionActor } from '../../src/flows/session/session.context';

// Issue 29 item 18: after 'Cerrar sesión' the focus lands on the login page's title, not on <body>
// (the menu item that had it is gone), so a screen reader says where the patient is.

describe('logout', () => {
  it('moves the focus to the login heading', async () => {
    const expiresAt = new Date(Date.now() + 15 * 60_000).toISOString();
    const machine = sessionMachine.provide({
      actors: {
        fetchSession: fromPromise<SessionResponse>(async () => ({
          authenticated: true,
          patient: { nombre: 'ANA', apellido: 'RUIZ' },
          expiresAt,
        })),
        endSession: fromPromise<void>(async () => {}),
      },
    });
    render(
      <MemoryRouter initialEntries={['/dashboard']}>
        <SessionActor.Provider logic={machine}>
          <AuthRoutes />
        </SessionActor.Provider>
      </MemoryRouter>,
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: dashboard.menuLabel }));
    await user.click(screen.getByRole('menuitem', { name: dashboard.logout }));
    const heading = await screen.findByRole('heading', { level: 1, name: login.title });
    await waitFor(() => expect(heading).toHaveFocus());
  });
});

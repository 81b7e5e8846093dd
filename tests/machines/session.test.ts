// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { SessionResponse } from '../../contract/session';
import { sessionMachine } from '../../machines/session/session.machine';
import { selectPatient, selectSessionStatus } from '../../machines/session/session.selectors';

const patient = { nombre: 'ANA', apellido: 'RUIZ' };

function start(
  answers: Array<SessionResponse | Error>,
  logout: () => Promise<void> = async () => {},
) {
  const calls = { session: 0, logout: 0 };
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        fetchSession: fromPromise(async () => {
          const answer = answers[Math.min(calls.session++, answers.length - 1)];
          if (answer instanceof Error) throw answer;
          return answer as SessionResponse;
        }),
        endSession: fromPromise(async () => {
          calls.logout++;
          await logout();
        }),
      },
    }),
  ).start();
  return { actor, calls, status: () => selectSessionStatus(actor.getSnapshot()) };
}

describe('session machine', () => {
  beforeEach(() => localStorage.setItem('algo', 'x'));
  afterEach(() => {
    vi.useRealTimers();
    localStorage.clear();
  });

  it('starts checking, then authenticated with the patient', async () => {
    const expiresAt = new Date(Date.now() + 15 * 60_000).toISOString();
    const { actor, status } = start([{ authenticated: true, patient, expiresAt }]);
    expect(status()).toBe('checking');
    await waitFor(actor, (s) => s.matches('authenticated'));
    expect(selectPatient(actor.getSnapshot())).toEqual(patient);
  });

  it('is anonymous without a session, and when the server cannot be reached', async () => {
    for (const answer of [{ authenticated: false } as const, new TypeError('Failed to fetch')]) {
      const { actor, status } = start([answer]);
      await waitFor(actor, (s) => s.matches('anonymous'));
      expect(status()).toBe('anonymous');
    }
  });

  it('after a login, asks the server again', async () => {
    const expiresAt = new Date(Date.now() + 60_000).toISOString();
    const { actor, calls } = start([
      { authenticated: false },
      { authenticated: true, patient, expiresAt },
    ]);
    await waitFor(actor, (s) => s.matches('anonymous'));
    actor.send({ type: 'session.loggedIn' });
    await waitFor(actor, (s) => s.matches('authenticated'));
    expect(calls.session).toBe(2);
  });

  it('logout ends the server session, clears local storage and becomes anonymous, even if the server fails', async () => {
    for (const logout of [async () => {}, async () => Promise.reject(new Error('down'))]) {
      localStorage.setItem('algo', 'x');
      const expiresAt = new Date(Date.now() + 60_000).toISOString();
      const { actor, calls, status } = start([{ authenticated: true, patient, expiresAt }], logout);
      await waitFor(actor, (s) => s.matches('authenticated'));
      actor.send({ type: 'session.logout' });
      expect(localStorage.length).toBe(0);
      expect(status()).toBe('authenticated');
      await waitFor(actor, (s) => s.matches('anonymous'));
      expect(calls.logout).toBe(1);
      expect(selectPatient(actor.getSnapshot())).toBeNull();
    }
  });

  it('asks the server again when the session would expire', async () => {
    vi.useFakeTimers();
    const expiresAt = new Date(Date.now() + 15 * 60_000).toISOString();
    const { actor, calls } = start([
      { authenticated: true, patient, expiresAt },
      { authenticated: false },
    ]);
    await vi.waitFor(() => expect(actor.getSnapshot().matches('authenticated')).toBe(true));
    await vi.advanceTimersByTimeAsync(15 * 60_000 - 5_000);
    expect(calls.session).toBe(1);
    await vi.advanceTimersByTimeAsync(10_000);
    await vi.waitFor(() => expect(actor.getSnapshot().matches('anonymous')).toBe(true));
    expect(calls.session).toBe(2);
  });
});

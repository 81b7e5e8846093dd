// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { LoginRequest, LoginResponse } from '../../contract/login';
import type { SessionResponse } from '../../contract/session';
import { loginMachine } from '../../machines/login/login.machine';
import { sessionMachine } from '../../machines/session/session.machine';
import {
  selectLoginActor,
  selectPatient,
  selectSessionStatus,
} from '../../machines/session/session.selectors';

const patient = { nombre: 'ANA', apellido: 'RUIZ' };

function start(
  answers: Array<SessionResponse | Error>,
  logout: () => Promise<void> = async () => {},
  submitLogin: (input: LoginRequest) => Promise<LoginResponse> = async () => ({ success: true }),
) {
  const calls = { session: 0, logout: 0 };
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        login: loginMachine.provide({
          actors: { submitLogin: fromPromise(({ input }) => submitLogin(input)) },
        }),
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
      await waitFor(actor, (s) => s.matches({ guest: 'anonymous' }));
      expect(status()).toBe('anonymous');
    }
  });

  /** The patient types a document and PIN into the login child and submits. */
  function logIn(actor: ReturnType<typeof start>['actor']) {
    const login = selectLoginActor(actor.getSnapshot());
    if (!login) throw new Error('no login child');
    login.send({ type: 'documento.change', value: '1234567' });
    login.send({ type: 'pin.change', value: '482915' });
    login.send({ type: 'form.submit' });
    return login;
  }

  it('invokes the login machine from the first check on: the form works while the server is asked', () => {
    const { actor, status } = start([new Promise(() => {}) as unknown as SessionResponse]);
    expect(status()).toBe('checking');
    const login = selectLoginActor(actor.getSnapshot());
    expect(login?.getSnapshot().matches('editing')).toBe(true);
    login!.send({ type: 'documento.change', value: '12a34567' });
    expect(login!.getSnapshot().context.documento).toBe('1234567');
  });

  it('when its login machine is done, asks the server again and, with a session, lets the login child go', async () => {
    const expiresAt = new Date(Date.now() + 60_000).toISOString();
    const { actor, calls, status } = start([
      { authenticated: false },
      { authenticated: true, patient, expiresAt },
    ]);
    await waitFor(actor, (s) => s.matches({ guest: 'anonymous' }));
    expect(calls.session).toBe(1);
    const login = logIn(actor);
    await waitFor(login, (s) => s.status === 'done');
    await waitFor(actor, (s) => s.matches('authenticated'));
    expect(calls.session).toBe(2);
    expect(status()).toBe('authenticated');
    expect(selectPatient(actor.getSnapshot())).toEqual(patient);
    expect(selectLoginActor(actor.getSnapshot())).toBeUndefined();
  });

  it('a refused login stays with the login child: the session does not ask the server again', async () => {
    const { actor, calls } = start([{ authenticated: false }], undefined, async () => ({
      success: false,
      message: 'Número de documento o PIN incorrectos.',
    }));
    await waitFor(actor, (s) => s.matches({ guest: 'anonymous' }));
    const login = logIn(actor);
    await waitFor(login, (s) => s.matches('failed'));
    expect(actor.getSnapshot().matches({ guest: 'anonymous' })).toBe(true);
    expect(selectLoginActor(actor.getSnapshot())).toBe(login);
    expect(calls.session).toBe(1);
  });

  it('a login done before the first check answered asks again (the first answer predates the cookie)', async () => {
    const expiresAt = new Date(Date.now() + 60_000).toISOString();
    let answerFirst: (r: SessionResponse) => void = () => {};
    const first = new Promise<SessionResponse>((resolve) => (answerFirst = resolve));
    const calls = { session: 0 };
    const actor = createActor(
      sessionMachine.provide({
        actors: {
          fetchSession: fromPromise(async () =>
            calls.session++ === 0 ? first : { authenticated: true as const, patient, expiresAt },
          ),
          login: loginMachine.provide({
            actors: {
              submitLogin: fromPromise<LoginResponse, LoginRequest>(async () => ({
                success: true,
              })),
            },
          }),
        },
      }),
    ).start();
    logIn(actor);
    await waitFor(actor, (s) => s.matches('authenticated'));
    expect(calls.session).toBe(2);
    answerFirst({ authenticated: false });
    await Promise.resolve();
    expect(actor.getSnapshot().matches('authenticated')).toBe(true);
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
      await waitFor(actor, (s) => s.matches({ guest: 'anonymous' }));
      expect(calls.logout).toBe(1);
      expect(selectPatient(actor.getSnapshot())).toBeNull();
      // A fresh login form for the next patient.
      expect(selectLoginActor(actor.getSnapshot())?.getSnapshot().context.documento).toBe('');
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
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ guest: 'anonymous' })).toBe(true));
    expect(calls.session).toBe(2);
  });
});

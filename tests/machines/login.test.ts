import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { LoginRequest, LoginResponse } from '../../contract/login';
import { loginMachine } from '../../machines/login/login.machine';
import { selectLoginView } from '../../machines/login/login.selectors';
import { ApiError } from '../../machines/shared/errors';

/** A login call the test settles by hand, recording what it was sent. */
function controllable() {
  const calls: LoginRequest[] = [];
  let settle!: { resolve: (r: LoginResponse) => void; reject: (e: unknown) => void };
  const actor = fromPromise<LoginResponse, LoginRequest>(({ input }) => {
    calls.push(input);
    return new Promise((resolve, reject) => (settle = { resolve, reject }));
  });
  return { actor, calls, settle: () => settle };
}

function start() {
  const api = controllable();
  const actor = createActor(loginMachine.provide({ actors: { submitLogin: api.actor } })).start();
  return { actor, api, view: () => selectLoginView(actor.getSnapshot()) };
}

const fill = (actor: ReturnType<typeof start>['actor'], documento = '1234567', pin = '482915') => {
  actor.send({ type: 'documento.change', value: documento });
  actor.send({ type: 'pin.change', value: pin });
};

describe('login machine', () => {
  it('keeps digits only, at most 12 for the document and 6 for the PIN', () => {
    const { actor, view } = start();
    fill(actor, '1.234-567abc8901234', '48a29 15 99');
    expect(view().documento).toBe('123456789012');
    expect(view().pin).toBe('482915');
  });

  it.each([
    ['1234', '482915', false],
    ['12345', '482915', true],
    ['1234567', '48291', false],
    ['1234567', '482915', true],
  ])('documento %s with PIN %s can submit: %s', (documento, pin, can) => {
    const { actor, view } = start();
    fill(actor, documento, pin);
    expect(view().canSubmit).toBe(can);
    actor.send({ type: 'form.submit' });
    expect(actor.getSnapshot().value).toBe(can ? 'submitting' : 'editing');
  });

  it('submits once, busy, ignoring edits and submits while loading, then is done on success', async () => {
    const { actor, api, view } = start();
    fill(actor);
    actor.send({ type: 'form.submit' });
    expect(view().busy).toBe(true);
    expect(view().canSubmit).toBe(false);
    actor.send({ type: 'documento.change', value: '999' });
    actor.send({ type: 'form.submit' });
    expect(api.calls).toEqual([{ numero_documento: '1234567', pin: '482915' }]);
    expect(view().documento).toBe('1234567');
    api.settle().resolve({ success: true, message: 'Sesión iniciada.' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(view().done).toBe(true);
  });

  it('keeps the server message of a success:false answer, else the rejected code', async () => {
    for (const [answer, error] of [
      [
        { success: false, message: 'Cuenta en revisión.' },
        { code: 'rejected', serverMessage: 'Cuenta en revisión.' },
      ],
      [{ success: false }, { code: 'rejected' }],
    ] as const) {
      const { actor, api, view } = start();
      fill(actor);
      actor.send({ type: 'form.submit' });
      api.settle().resolve(answer);
      await waitFor(actor, (s) => s.matches('failed'));
      expect(view().error).toEqual(error);
      expect(view().documento).toBe('1234567');
    }
  });

  it.each([
    [
      new ApiError('server', 401, 'Número de documento o PIN incorrectos.'),
      { code: 'loginFailed', serverMessage: 'Número de documento o PIN incorrectos.' },
    ],
    [new ApiError('server', 500, undefined), { code: 'loginFailed' }],
    [new ApiError('network', undefined, undefined), { code: 'network' }],
    [new ApiError('invalidResponse', 200, undefined), { code: 'network' }],
    [new TypeError('Failed to fetch'), { code: 'network' }],
    [
      new ApiError(
        'tooManyAttempts',
        429,
        'Demasiados intentos. Esperá 3 minutos e intentá de nuevo.',
        170,
      ),
      {
        code: 'tooManyAttempts',
        serverMessage: 'Demasiados intentos. Esperá 3 minutos e intentá de nuevo.',
      },
    ],
  ])('maps %o to %o and keeps what was typed', async (err, error) => {
    const { actor, api, view } = start();
    fill(actor);
    actor.send({ type: 'form.submit' });
    api.settle().reject(err);
    await waitFor(actor, (s) => s.hasTag('error'));
    expect(view().error).toEqual(error);
    expect(view()).toMatchObject({ documento: '1234567', pin: '482915', busy: false });
  });

  it('retries from failed, clearing the error while submitting', async () => {
    const { actor, api, view } = start();
    fill(actor);
    actor.send({ type: 'form.submit' });
    api.settle().reject(new ApiError('network', undefined, undefined));
    await waitFor(actor, (s) => s.matches('failed'));
    actor.send({ type: 'pin.change', value: '482916' });
    expect(view().error).toEqual({ code: 'network' });
    actor.send({ type: 'form.submit' });
    expect(view().error).toBeNull();
    expect(api.calls.at(-1)).toEqual({ numero_documento: '1234567', pin: '482916' });
  });
});

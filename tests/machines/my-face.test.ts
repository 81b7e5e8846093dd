import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { MyFaceCodeResponse, MyFaceResponse, MyFaceState } from '../../contract/my-face';
import { MY_DATA_LOADED } from '../../machines/my-data/my-data.fixtures';
import { myDataMachine } from '../../machines/my-data/my-data.machine';
import { selectMyDataScreen, selectMyFaceRef } from '../../machines/my-data/my-data.selectors';
import { myFaceMachine } from '../../machines/my-data/my-face.machine';
import { selectMyFaceView } from '../../machines/my-data/my-face.selectors';
import { ApiError } from '../../machines/shared/errors';

const FACE: MyFaceState = {
  enrolled: true,
  since: '2026-10-02T13:20:00.000Z',
  locked: false,
  lockedAt: null,
  celular: '•••••••456',
};
const answer = (face: Partial<MyFaceState>, message?: string): MyFaceResponse => ({
  success: true,
  face: { ...FACE, ...face },
  ...(message ? { message } : {}),
});

/** The machine with fake calls that record what they were sent; `fail` rejects the next one. */
function start(initial: Partial<MyFaceState> = {}, firstFails: ApiError | null = null) {
  const calls: { name: string; input?: unknown }[] = [];
  let fail: ApiError | null = firstFails;
  const call = <T>(name: string, result: (input: unknown) => T) =>
    fromPromise<T, unknown>(async ({ input }) => {
      calls.push({ name, input });
      if (fail) {
        const e = fail;
        fail = null;
        throw e;
      }
      return result(input);
    });
  const machine = myFaceMachine.provide({
    actors: {
      loadFace: call('load', () => answer(initial)),
      lockFace: call('lock', () =>
        answer({ locked: true, lockedAt: '2026-11-28T14:00:00Z' }, 'Bloqueaste'),
      ),
      sendCode: call<MyFaceCodeResponse>('code', () => ({
        ...answer({ locked: true }),
        message: 'Te enviamos un código',
        resendAfterSeconds: 30,
      })),
      unlockFace: call('unlock', () => answer({ locked: false }, 'Desbloqueaste')),
      withdrawFace: call('withdraw', () => answer({ enrolled: false, since: null }, 'Borramos')),
    } as never,
  });
  const actor = createActor(machine).start();
  return {
    actor,
    calls,
    failNext: (e: ApiError) => (fail = e),
    view: () => selectMyFaceView(actor.getSnapshot()),
    idle: () => waitFor(actor, (s) => !s.hasTag('busy')),
  };
}

describe('myFace machine (issue 45 item 4)', () => {
  it('locks without a code, then unlocks with the PIN and the code; a wrong PIN keeps what was typed', async () => {
    const m = start();
    await m.idle();
    expect(m.view().screen).toBe('unlocked');
    m.actor.send({ type: 'face.lock' });
    await m.idle();
    expect(m.view()).toMatchObject({ screen: 'locked', notice: 'Bloqueaste' });

    m.actor.send({ type: 'face.unlock' });
    expect(m.view().busy).toBe('sendingCode');
    await m.idle();
    expect(m.view()).toMatchObject({ screen: 'unlocking', resendAfterSeconds: 30 });
    // Not submitted before both are complete.
    m.actor.send({ type: 'pin.change', value: '4829' });
    m.actor.send({ type: 'face.submit' });
    expect(m.view().busy).toBeNull();
    m.actor.send({ type: 'pin.change', value: '482915x' });
    m.actor.send({ type: 'otp.change', value: '123456' });
    expect(m.view().canSubmit).toBe(true);

    m.failNext(new ApiError('server', 400, 'El PIN no es correcto.'));
    m.actor.send({ type: 'face.submit' });
    await m.idle();
    expect(m.view()).toMatchObject({
      screen: 'unlocking',
      pin: '482915',
      otp: '123456',
      error: { status: 400, serverMessage: 'El PIN no es correcto.' },
    });
    m.actor.send({ type: 'face.submit' });
    await m.idle();
    expect(m.view()).toMatchObject({
      screen: 'unlocked',
      notice: 'Desbloqueaste',
      pin: '',
      otp: '',
      error: null,
    });
    expect(m.calls.filter((c) => c.name === 'unlock').map((c) => c.input)).toEqual([
      { pin: '482915', otp: '123456' },
      { pin: '482915', otp: '123456' },
    ]);
  });

  it('each failed submit counts, and names the field to fix: the code when it was wrong', async () => {
    const m = start({ locked: true });
    await m.idle();
    m.actor.send({ type: 'face.unlock' });
    await m.idle();
    m.actor.send({ type: 'pin.change', value: '482915' });
    m.actor.send({ type: 'otp.change', value: '123456' });
    expect(m.view()).toMatchObject({ failures: 0, focus: 'pin' });
    m.failNext(new ApiError('server', 400, 'El PIN no es correcto.'));
    m.actor.send({ type: 'face.submit' });
    await m.idle();
    expect(m.view()).toMatchObject({ failures: 1, focus: 'pin' });
    m.failNext(new ApiError('server', 400, 'Código incorrecto.', undefined, 'wrong_otp'));
    m.actor.send({ type: 'face.submit' });
    await m.idle();
    expect(m.view()).toMatchObject({ screen: 'unlocking', failures: 2, focus: 'otp' });
    m.actor.send({ type: 'face.cancel' });
    m.actor.send({ type: 'face.withdraw' });
    m.actor.send({ type: 'pin.change', value: '111111' });
    m.failNext(new ApiError('server', 400, 'El PIN no es correcto.'));
    m.actor.send({ type: 'face.submit' });
    await m.idle();
    expect(m.view()).toMatchObject({ screen: 'withdrawing', failures: 3, focus: 'pin' });
  });

  it('a code can be sent again; cancel goes back without a call', async () => {
    const m = start({ locked: true });
    await m.idle();
    expect(m.view().screen).toBe('locked');
    m.actor.send({ type: 'face.unlock' });
    await m.idle();
    m.actor.send({ type: 'otp.change', value: '111111' });
    m.actor.send({ type: 'face.code.resend' });
    await m.idle();
    expect(m.view()).toMatchObject({ screen: 'unlocking', otp: '111111' });
    const before = m.calls.length;
    m.actor.send({ type: 'face.cancel' });
    expect(m.view()).toMatchObject({ screen: 'locked', otp: '' });
    expect(m.calls).toHaveLength(before);
    expect(m.calls.filter((c) => c.name === 'code')).toHaveLength(2);
  });

  it('withdraws with the PIN: then no face, and nothing more to do', async () => {
    const m = start();
    await m.idle();
    m.actor.send({ type: 'face.withdraw' });
    expect(m.view().screen).toBe('withdrawing');
    m.actor.send({ type: 'face.submit' });
    expect(m.calls.map((c) => c.name)).toEqual(['load']);
    m.actor.send({ type: 'pin.change', value: '482915' });
    m.actor.send({ type: 'face.submit' });
    await m.idle();
    expect(m.view()).toMatchObject({ screen: 'withdrawn', pin: '', face: { enrolled: false } });
    m.actor.send({ type: 'face.lock' });
    expect(m.view().screen).toBe('withdrawn');
  });

  it('a face not enrolled offers nothing; a failed load can be retried; 401 is the session', async () => {
    const none = start({ enrolled: false, since: null });
    await none.idle();
    none.actor.send({ type: 'face.lock' });
    expect(none.view().screen).toBe('none');

    const m = start({}, new ApiError('server', 401, 'Tu sesión terminó.'));
    await waitFor(m.actor, (s) => s.matches('failed'));
    expect(m.view()).toMatchObject({ screen: 'failed', sessionEnded: true });
    m.actor.send({ type: 'face.retry' });
    await m.idle();
    expect(m.view().screen).toBe('unlocked');
  });
});

describe('myData machine: the face section (issue 45 item 4)', () => {
  it('invokes the myFace child while the section is shown', async () => {
    const face = myFaceMachine.provide({
      actors: { loadFace: fromPromise(async () => answer({})) },
    });
    const actor = createActor(
      myDataMachine.provide({
        actors: { loadMyData: fromPromise(async () => MY_DATA_LOADED), myFace: face },
      }),
    ).start();
    await waitFor(actor, (s) => s.matches('showing'));
    expect(selectMyFaceRef(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'section.show', section: 'face' });
    expect(selectMyDataScreen(actor.getSnapshot())).toBe('face');
    const child = selectMyFaceRef(actor.getSnapshot())!;
    await waitFor(child, (s) => s.matches('shown'));
    actor.send({ type: 'section.show', section: 'accesses' });
    expect(selectMyFaceRef(actor.getSnapshot())).toBeNull();
  });
});

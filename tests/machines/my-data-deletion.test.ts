import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { DeletionCodeResponse, DeletionStatusResponse } from '../../contract/my-data-deletion';
import { deletionMachine } from '../../machines/my-data/deletion.machine';
import { selectDeletionView } from '../../machines/my-data/deletion.selectors';
import { MY_DATA_LOADED } from '../../machines/my-data/my-data.fixtures';
import { myDataMachine } from '../../machines/my-data/my-data.machine';
import { selectDeletionActor, selectMyDataScreen } from '../../machines/my-data/my-data.selectors';
import { ApiError } from '../../machines/shared/errors';

const DUE = { dueAt: '2026-11-30T14:05:00.000Z' };
const status = (deletion: typeof DUE | null): DeletionStatusResponse => ({
  success: true,
  deletion,
  waitHours: 24,
});
const codeSent: DeletionCodeResponse = { success: true, message: 'ok', resendAfterSeconds: 30 };

type Fakes = {
  load?: () => Promise<DeletionStatusResponse>;
  sendCode?: (pin: string) => Promise<DeletionCodeResponse>;
  confirm?: (code: string) => Promise<DeletionStatusResponse>;
  cancel?: () => Promise<void>;
};

function start(fakes: Fakes = {}) {
  const calls: string[] = [];
  const machine = deletionMachine.provide({
    actors: {
      loadDeletion: fromPromise(async () => {
        calls.push('load');
        return (fakes.load ?? (async () => status(null)))();
      }),
      sendCode: fromPromise<DeletionCodeResponse, { pin: string }>(async ({ input }) => {
        calls.push(`code:${input.pin}`);
        return (fakes.sendCode ?? (async () => codeSent))(input.pin);
      }),
      confirm: fromPromise<DeletionStatusResponse['deletion'], { code: string }>(
        async ({ input }) => {
          calls.push(`confirm:${input.code}`);
          return (await (fakes.confirm ?? (async () => status(DUE)))(input.code)).deletion;
        },
      ),
      cancel: fromPromise(async () => {
        calls.push('cancel');
        await (fakes.cancel ?? (async () => {}))();
      }),
    },
  });
  const actor = createActor(machine).start();
  const view = () => selectDeletionView(actor.getSnapshot());
  const settled = () => waitFor(actor, (s) => !s.hasTag('busy'));
  return { actor, calls, view, settled };
}

describe("deletion machine: 'Eliminar mi cuenta' (issue 45 item 6)", () => {
  it('explains, asks the PIN, then the code; pending; cancel; ask again', async () => {
    const { actor, calls, view, settled } = start();
    await settled();
    expect(view()).toMatchObject({ screen: 'intro', waitHours: 24 });
    actor.send({ type: 'deletion.start' });
    expect(view().screen).toBe('pin');
    actor.send({ type: 'pin.change', value: '739154' });
    actor.send({ type: 'pin.submit' });
    expect(view()).toMatchObject({ screen: 'pin', busy: true });
    await settled();
    expect(view().screen).toBe('code');
    actor.send({ type: 'code.resend' });
    await settled();
    actor.send({ type: 'code.change', value: '482915' });
    actor.send({ type: 'code.submit' });
    await settled();
    expect(view()).toMatchObject({ screen: 'pending', pending: DUE, pin: '', code: '' });
    actor.send({ type: 'deletion.cancel' });
    await settled();
    expect(view()).toMatchObject({ screen: 'cancelled', pending: null });
    actor.send({ type: 'deletion.start' });
    expect(view().screen).toBe('pin');
    expect(calls).toEqual(['load', 'code:739154', 'code:739154', 'confirm:482915', 'cancel']);
  });

  it('opens on the pending deletion when there is one', async () => {
    const { view, settled } = start({ load: async () => status(DUE) });
    await settled();
    expect(view()).toMatchObject({ screen: 'pending', pending: DUE });
  });

  it('a wrong PIN or code keeps what was typed and says why', async () => {
    const wrong = (message: string, statusCode: number) => async () => {
      throw new ApiError('server', statusCode, message);
    };
    const { actor, view, settled } = start({
      sendCode: wrong('El PIN no es correcto.', 403),
      confirm: wrong('Código incorrecto o vencido.', 400),
    });
    await settled();
    actor.send({ type: 'deletion.start' });
    actor.send({ type: 'pin.change', value: '000001' });
    actor.send({ type: 'pin.submit' });
    await settled();
    expect(view()).toMatchObject({
      screen: 'pin',
      pin: '000001',
      error: { status: 403, serverMessage: 'El PIN no es correcto.' },
    });

    const second = start({ confirm: wrong('Código incorrecto o vencido.', 400) });
    await second.settled();
    second.actor.send({ type: 'deletion.start' });
    second.actor.send({ type: 'pin.change', value: '739154' });
    second.actor.send({ type: 'pin.submit' });
    await second.settled();
    second.actor.send({ type: 'code.change', value: '111111' });
    second.actor.send({ type: 'code.submit' });
    await second.settled();
    expect(second.view()).toMatchObject({ screen: 'code', code: '111111', pin: '739154' });
    expect(second.view().error?.status).toBe(400);
    // Each failed submit is counted: the view puts the focus back on the field to fix.
    expect(view().failures).toBe(1);
    expect(second.view().failures).toBe(1);
  });

  it('an ended session shows its screen; a request made elsewhere (409) reloads', async () => {
    const ended = start({
      sendCode: async () => {
        throw new ApiError('server', 401, 'Tu sesión terminó.');
      },
    });
    await ended.settled();
    ended.actor.send({ type: 'deletion.start' });
    ended.actor.send({ type: 'pin.change', value: '739154' });
    ended.actor.send({ type: 'pin.submit' });
    await ended.settled();
    expect(ended.view().screen).toBe('sessionEnded');

    let loads = 0;
    const elsewhere = start({
      load: async () => (++loads === 1 ? status(null) : status(DUE)),
      sendCode: async () => {
        throw new ApiError('server', 409, 'Ya pediste eliminar tu cuenta.');
      },
    });
    await elsewhere.settled();
    elsewhere.actor.send({ type: 'deletion.start' });
    elsewhere.actor.send({ type: 'pin.change', value: '739154' });
    elsewhere.actor.send({ type: 'pin.submit' });
    await waitFor(elsewhere.actor, (s) => s.matches('pending'));
    expect(elsewhere.view().pending).toEqual(DUE);
  });

  it('a failed load can be retried; a failed cancel stays pending with its error', async () => {
    let fail = true;
    const { actor, view, settled } = start({
      load: async () => {
        if (fail) throw new ApiError('network', undefined, undefined);
        return status(DUE);
      },
      cancel: async () => {
        throw new ApiError('network', undefined, undefined);
      },
    });
    await settled();
    expect(view().screen).toBe('failed');
    fail = false;
    actor.send({ type: 'load.retry' });
    await settled();
    actor.send({ type: 'deletion.cancel' });
    await settled();
    expect(view()).toMatchObject({ screen: 'pending', pending: DUE, error: { code: 'network' } });
  });

  it("is the Mis datos machine's child on every section: a pending deletion is known at once", async () => {
    const machine = myDataMachine.provide({
      actors: {
        loadMyData: fromPromise(async () => MY_DATA_LOADED),
        deletion: deletionMachine.provide({
          actors: { loadDeletion: fromPromise(async () => status(DUE)) },
        }),
      },
    });
    const actor = createActor(machine).start();
    expect(selectDeletionActor(actor.getSnapshot())).toBeUndefined();
    await waitFor(actor, (s) => s.matches('showing'));
    expect(selectMyDataScreen(actor.getSnapshot())).toBe('data');
    const child = selectDeletionActor(actor.getSnapshot())!;
    await waitFor(child, (s) => s.matches('pending'));
    actor.send({ type: 'section.show', section: 'deletion' });
    expect(selectMyDataScreen(actor.getSnapshot())).toBe('deletion');
    // The same child: what it knows and what the patient typed survive a change of section.
    expect(selectDeletionActor(actor.getSnapshot())).toBe(child);
    actor.send({ type: 'section.show', section: 'accesses' });
    expect(selectDeletionActor(actor.getSnapshot())).toBe(child);
  });
});

import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { MY_DATA_LOADED } from '../../machines/my-data/my-data.fixtures';
import { myDataMachine } from '../../machines/my-data/my-data.machine';
import {
  selectAccesses,
  selectMyData,
  selectMyDataFailure,
  selectMyDataScreen,
} from '../../machines/my-data/my-data.selectors';
import type { MyDataLoaded } from '../../machines/my-data/my-data.types';
import { ApiError } from '../../machines/shared/errors';

function start(load: () => Promise<MyDataLoaded>) {
  const calls: number[] = [];
  const machine = myDataMachine.provide({
    actors: {
      loadMyData: fromPromise(async () => {
        calls.push(1);
        return load();
      }),
    },
  });
  const actor = createActor(machine).start();
  return { actor, calls, screen: () => selectMyDataScreen(actor.getSnapshot()) };
}

describe('myData machine (issue 45)', () => {
  it('loads, shows the data, then who looked, and back', async () => {
    const { actor, screen } = start(async () => MY_DATA_LOADED);
    expect(screen()).toBe('loading');
    await waitFor(actor, (s) => s.matches('showing'));
    expect(screen()).toBe('data');
    expect(selectMyData(actor.getSnapshot())?.celular).toBe('0981123456');
    actor.send({ type: 'section.show', section: 'accesses' });
    expect(screen()).toBe('accesses');
    expect(selectAccesses(actor.getSnapshot())).toHaveLength(MY_DATA_LOADED.accesses.length);
    actor.send({ type: 'section.show', section: 'data' });
    expect(screen()).toBe('data');
  });

  it('a failed load can be retried; a retry while showing is ignored', async () => {
    let fail = true;
    const { actor, calls, screen } = start(async () => {
      if (fail) throw new ApiError('network', undefined, undefined);
      return MY_DATA_LOADED;
    });
    await waitFor(actor, (s) => s.hasTag('error'));
    expect(screen()).toBe('failed');
    expect(selectMyDataFailure(actor.getSnapshot())).toMatchObject({ sessionEnded: false });
    fail = false;
    actor.send({ type: 'load.retry' });
    await waitFor(actor, (s) => s.matches('showing'));
    actor.send({ type: 'load.retry' });
    expect(calls).toHaveLength(2);
    expect(screen()).toBe('data');
  });

  it('a 401 says the session ended; sections are ignored until something is loaded', async () => {
    const { actor, screen } = start(async () => {
      throw new ApiError('server', 401, 'Tu sesión terminó.');
    });
    actor.send({ type: 'section.show', section: 'accesses' });
    await waitFor(actor, (s) => s.hasTag('error'));
    actor.send({ type: 'section.show', section: 'accesses' });
    expect(screen()).toBe('failed');
    expect(selectMyDataFailure(actor.getSnapshot())).toMatchObject({ sessionEnded: true });
  });
});

import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { createEventLog, type LoggedEvent } from '../../src/app/inspector';
import { loginMachine } from '../../machines/login/login.machine';

describe('offline event log (the inspect hook)', () => {
  it('records event types and state values of a flow, never payloads such as a PIN', () => {
    const seen: LoggedEvent[] = [];
    const log = createEventLog((e) => seen.push(e));
    const machine = loginMachine.provide({
      actors: { submitLogin: fromPromise(() => new Promise(() => {})) },
    });
    const actor = createActor(machine, { inspect: log.observe }).start();
    actor.send({ type: 'documento.change', value: '7654321' });
    actor.send({ type: 'pin.change', value: '482915' });
    actor.send({ type: 'form.submit' });
    const types = log.entries.filter((e) => e.kind === 'event').map((e) => e.type);
    expect(types).toEqual(
      expect.arrayContaining(['documento.change', 'pin.change', 'form.submit']),
    );
    expect(log.entries.filter((e) => e.kind === 'snapshot').map((e) => e.value)).toContain(
      'submitting',
    );
    expect(JSON.stringify(log.entries)).not.toMatch(/482915|7654321/);
    expect(seen).toEqual(log.entries);
  });

  it('keeps at most the last N entries', () => {
    const log = createEventLog(() => {}, 3);
    const actor = createActor(loginMachine, { inspect: log.observe }).start();
    for (let i = 0; i < 10; i++) actor.send({ type: 'pin.change', value: String(i) });
    expect(log.entries).toHaveLength(3);
  });
});

import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type ActorRefFrom } from 'xstate';
import type { CorrectionRequest } from '../../contract/my-data-correct';
import { ApiError } from '../../machines/shared/errors';
import {
  correctMachine,
  type CorrectionItem,
  type IdentityValue,
} from '../../machines/my-data/correct.machine';
import { CORRECTION_REQUESTS } from '../../machines/my-data/correct.fixtures';
import { selectCorrect } from '../../machines/my-data/correct.selectors';
import { MY_DATA_LOADED } from '../../machines/my-data/my-data.fixtures';
import { myDataMachine } from '../../machines/my-data/my-data.machine';
import { selectMyDataScreen } from '../../machines/my-data/my-data.selectors';
import { controlled } from './controlled';

/** 'Corregir mis datos' (issue 45 item 5): the child machine and its wiring in Mis datos. */

const identity = MY_DATA_LOADED.data.identity as IdentityValue[];

function start(requests: CorrectionItem[] = CORRECTION_REQUESTS) {
  const send = controlled<CorrectionItem, CorrectionRequest>();
  const machine = correctMachine.provide({
    actors: {
      listCorrections: fromPromise(async () => requests),
      sendCorrection: send.logic,
    },
  });
  const actor = createActor(machine, { input: { identity } }).start();
  return { actor, calls: send.calls, view: () => selectCorrect(actor.getSnapshot()) };
}

const settled = (actor: { getSnapshot(): { matches(v: string): boolean } }, state: string) =>
  new Promise<void>((resolve) => {
    const check = () => actor.getSnapshot().matches(state) && resolve();
    check();
    (actor as unknown as { subscribe(f: () => void): void }).subscribe(check);
  });

describe('correct: a request from Mis datos', () => {
  it('lists the requests, and a field with one pending cannot be chosen', async () => {
    const { actor, view } = start();
    await settled(actor, 'list');
    expect(view().requests.map((r) => r.state)).toEqual(['pending', 'approved', 'rejected']);
    actor.send({ type: 'correct.start' });
    expect(view().pending.has('MaritalStatus')).toBe(true);
    actor.send({ type: 'field.pick', field: 'MaritalStatus' });
    expect(view().screen).toBe('choosing');
    actor.send({ type: 'field.pick', field: 'Gender' });
    expect(view()).toMatchObject({ screen: 'writing', field: 'Gender', current: 'F' });
    expect(view().choices).toContain('X');
  });

  it('sends only with a value and a reason of 5 or more; sent, the request heads the list', async () => {
    const { actor, view, calls } = start();
    await settled(actor, 'list');
    actor.send({ type: 'correct.start' });
    actor.send({ type: 'field.pick', field: 'FullName' });
    actor.send({ type: 'value.change', value: '  GONZÁLEZ BENÍTEZ MARÍA JOSEFA ' });
    actor.send({ type: 'reason.change', reason: 'mal' });
    expect(view().canSend).toBe(false);
    actor.send({ type: 'send' });
    expect(calls).toHaveLength(0);
    actor.send({ type: 'reason.change', reason: 'Mi nombre es Josefa' });
    actor.send({ type: 'send' });
    expect(view()).toMatchObject({ screen: 'writing', sending: true });
    expect(calls.map((c) => c.input)).toEqual([
      { field: 'FullName', value: 'GONZÁLEZ BENÍTEZ MARÍA JOSEFA', reason: 'Mi nombre es Josefa' },
    ]);
    const created = { ...CORRECTION_REQUESTS[0]!, id: 'new', field: 'FullName' as const };
    calls[0]!.answer.resolve(created);
    await settled(actor, 'sent');
    expect(view().sent).toEqual(created);
    expect(view()).toMatchObject({ value: '', reason: '' });
    actor.send({ type: 'back' });
    expect(view().requests[0]).toEqual(created);
  });

  it("a refusal keeps everything written and says the server's sentence", async () => {
    const { actor, view, calls } = start([]);
    await settled(actor, 'list');
    actor.send({ type: 'correct.start' });
    actor.send({ type: 'field.pick', field: 'MaritalStatus' });
    actor.send({ type: 'value.change', value: 'CASADA' });
    actor.send({ type: 'reason.change', reason: 'Me casé en 2024' });
    actor.send({ type: 'send' });
    calls[0]!.answer.reject(new ApiError('server', 409, 'Ya pediste corregir este dato.'));
    await settled(actor, 'writing');
    expect(view()).toMatchObject({
      screen: 'writing',
      sending: false,
      value: 'CASADA',
      reason: 'Me casé en 2024',
      error: { code: 'server', status: 409, serverMessage: 'Ya pediste corregir este dato.' },
    });
  });
});

describe('Mis datos: the section', () => {
  it("'Corregir mis datos' invokes the child with the fields as shown", () => {
    const machine = myDataMachine.provide({
      actors: {
        correct: correctMachine.provide({
          actors: { listCorrections: fromPromise(async (): Promise<CorrectionItem[]> => []) },
        }),
      },
    });
    const actor = createActor(machine, {
      snapshot: myDataMachine.resolveState({
        value: { showing: 'data' },
        context: { loaded: MY_DATA_LOADED, error: null },
      }),
    }).start();
    actor.send({ type: 'section.show', section: 'corrections' });
    expect(selectMyDataScreen(actor.getSnapshot())).toBe('corrections');
    const child = actor.getSnapshot().children.correct as ActorRefFrom<typeof correctMachine>;
    expect(child.getSnapshot().context.identity).toEqual(identity);
    actor.send({ type: 'section.show', section: 'data' });
    expect(actor.getSnapshot().children.correct).toBeUndefined();
  });
});

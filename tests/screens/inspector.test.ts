import { describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { createActor, fromPromise, waitFor } from 'xstate';
import { createEventLog, type LoggedEvent } from '../../src/app/inspector';
import { deferredObserver } from '../../machines/insight/deferred';
import { kycMachine } from '../../machines/kyc/kyc.machine';
import type { KycSession } from '../../machines/kyc/kyc.types';
import { loginMachine } from '../../machines/login/login.machine';
import { onboardingFixtures } from '../../machines/onboarding/onboarding.fixtures';
import { onboardingMachine } from '../../machines/onboarding/onboarding.machine';
import { selectKycActor } from '../../machines/onboarding/onboarding.selectors';

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
    expect(log.entries.every((e) => e.actor === 'login' || e.actor === 'submitLogin')).toBe(true);
  });

  it('keeps at most the last N entries', () => {
    const log = createEventLog(() => {}, 3);
    const actor = createActor(loginMachine, { inspect: log.observe }).start();
    for (let i = 0; i < 10; i++) actor.send({ type: 'pin.change', value: String(i) });
    expect(log.entries).toHaveLength(3);
  });

  it('sees the KYC child the wizard spawns once step 4 has loaded its chunk', async () => {
    const log = createEventLog(() => {});
    const kyc = kycMachine.provide({
      actors: { ensureSession: fromPromise(() => new Promise<KycSession>(() => {})) },
    });
    const wizard = onboardingMachine.provide({ actors: { loadKyc: fromPromise(async () => kyc) } });
    const actor = createActor(wizard, {
      input: {},
      inspect: log.observe,
      snapshot: onboardingFixtures.welcome,
    }).start();
    actor.send({ type: 'welcome.next' });
    await waitFor(actor, (s) => s.matches({ kyc: 'running' }));
    const child = selectKycActor(actor.getSnapshot())!;
    child.send({ type: 'kyc.retry' });
    const ofChild = log.entries.filter((e) => e.session === child.sessionId);
    // Named by the machine's id, not XState's generated 'x:N'.
    expect(new Set(ofChild.map((e) => e.actor))).toEqual(new Set(['kyc']));
    expect(ofChild.some((e) => e.kind === 'snapshot')).toBe(true);
    expect(ofChild.filter((e) => e.kind === 'event').map((e) => e.type)).toContain('kyc.retry');
    expect(
      log.entries.filter((e) => e.session === actor.sessionId).map((e) => e.value),
    ).toContainEqual({ kyc: 'loading' });
    const names = new Set(log.entries.map((e) => e.actor));
    expect(names).toContain('onboarding');
    expect([...names].some((n) => /^x:\d+$/.test(n))).toBe(false);
  });
});

describe('journey insight loaded after hydration (deferredObserver)', () => {
  const typesOf = (events: InspectionEvent[]) =>
    events
      .filter((e) => e.type === '@xstate.event')
      .map((e) => (e as { event: { type: string } }).event.type);

  it('replays the events that came before it loaded, in order, then passes each one on', async () => {
    const received: InspectionEvent[] = [];
    let loads = 0;
    const deferred = deferredObserver(async () => {
      loads++;
      return (e) => received.push(e);
    });
    const actor = createActor(loginMachine, { inspect: deferred.observe }).start();
    actor.send({ type: 'documento.change', value: '1234567' });
    expect(received).toEqual([]);
    expect(deferred.waiting).toBeGreaterThan(0);
    await Promise.all([deferred.start(), deferred.start()]);
    expect(loads).toBe(1);
    expect(deferred.waiting).toBe(0);
    expect(typesOf(received)).toEqual(['xstate.init', 'documento.change']);
    actor.send({ type: 'pin.change', value: '4' });
    expect(typesOf(received)).toEqual(['xstate.init', 'documento.change', 'pin.change']);
  });

  it('keeps at most `max` waiting events, and drops them when the target fails to load', async () => {
    const deferred = deferredObserver(() => Promise.reject(new Error('offline')), 3);
    const actor = createActor(loginMachine, { inspect: deferred.observe }).start();
    for (let i = 0; i < 10; i++) actor.send({ type: 'pin.change', value: String(i) });
    expect(deferred.waiting).toBe(3);
    await deferred.start();
    expect(deferred.waiting).toBe(0);
    actor.send({ type: 'pin.change', value: '1' });
    expect(deferred.waiting).toBe(0);
  });
});

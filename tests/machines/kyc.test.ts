import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { kycFixtures } from '../../machines/kyc/kyc.fixtures';
import { kycMachine } from '../../machines/kyc/kyc.machine';
import { selectKycScreen, selectKycView } from '../../machines/kyc/kyc.selectors';

type Answer = { status: number; body?: unknown; raw?: string } | 'offline';

/** Stubs the browser's fetch (machines/shared/http.ts is the only caller) with answers in order. */
function stubFetch(...answers: Answer[]) {
  const calls: Array<{ url: string; method: string | undefined }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, method: init.method });
      const answer = answers.shift() ?? 'offline';
      if (answer === 'offline') throw new TypeError('Failed to fetch');
      return new Response(answer.raw ?? JSON.stringify(answer.body), {
        status: answer.status,
        headers: {
          'content-type': 'application/json',
          ...(answer.status === 429 ? { 'retry-after': '600' } : {}),
        },
      });
    }),
  );
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe('kyc machine (entry of the identity step)', () => {
  it("creates a session on entry when there is none, showing 'Cargando...' meanwhile", async () => {
    const calls = stubFetch({ status: 200, body: { success: true, session_id: 'sess-42' } });
    const actor = createActor(kycMachine, { input: {} }).start();
    expect(actor.getSnapshot().value).toBe('starting');
    expect(selectKycView(actor.getSnapshot())).toMatchObject({
      screen: 'loading',
      busy: true,
      canRetry: false,
    });
    await waitFor(actor, (s) => !s.hasTag('busy'));
    expect(calls).toEqual([{ url: '/api/onboarding/start-kyc', method: 'POST' }]);
    expect(actor.getSnapshot().context.sessionId).toBe('sess-42');
  });

  it('reuses the session the wizard already holds without calling the server', async () => {
    const calls = stubFetch();
    const actor = createActor(kycMachine, { input: { sessionId: 'held-1' } }).start();
    await waitFor(actor, (s) => !s.hasTag('busy'));
    expect(calls).toHaveLength(0);
    expect(actor.getSnapshot().context.sessionId).toBe('held-1');
  });

  it("with a session and no capture step built yet, shows the spec's unexpected-step state", async () => {
    stubFetch({ status: 200, body: { success: true, session_id: 'sess-42' } });
    const actor = createActor(kycMachine, { input: undefined }).start();
    await waitFor(actor, (s) => !s.hasTag('busy'));
    expect(actor.getSnapshot().value).toBe('unexpectedStep');
    expect(selectKycView(actor.getSnapshot())).toMatchObject({
      screen: 'unexpectedStep',
      error: { code: 'unexpectedStep' },
      canRetry: false,
    });
  });

  it.each<[string, Answer, object]>([
    [
      'a 200 that is not the contract (success false)',
      { status: 200, body: { success: false, message: 'Servicio no disponible.' } },
      { code: 'startKycFailed' },
    ],
    [
      'a 200 without session_id',
      { status: 200, body: { success: true } },
      { code: 'startKycFailed' },
    ],
    [
      'a 503 with a message',
      {
        status: 503,
        body: { success: false, message: 'El motor de identidad no está disponible.' },
      },
      { code: 'startKycFailed', serverMessage: 'El motor de identidad no está disponible.' },
    ],
    ['an answer that is not JSON', { status: 200, raw: '<html>' }, { code: 'startKycFailed' }],
    [
      'a 429',
      {
        status: 429,
        body: {
          success: false,
          message: 'Demasiados intentos. Esperá 10 minutos e intentá de nuevo.',
        },
      },
      {
        code: 'tooManyAttempts',
        serverMessage: 'Demasiados intentos. Esperá 10 minutos e intentá de nuevo.',
      },
    ],
    ['no answer', 'offline', { code: 'network' }],
  ])('fails on %s and can retry', async (_label, answer, expected) => {
    const calls = stubFetch(answer, { status: 200, body: { success: true, session_id: 'sess-2' } });
    const actor = createActor(kycMachine, { input: {} }).start();
    await waitFor(actor, (s) => s.hasTag('error'));
    expect(actor.getSnapshot().value).toBe('failed');
    expect(selectKycView(actor.getSnapshot())).toMatchObject({
      screen: 'failed',
      error: expected,
      canRetry: true,
    });
    actor.send({ type: 'kyc.retry' });
    expect(actor.getSnapshot().value).toBe('starting');
    expect(actor.getSnapshot().context.error).toBeNull();
    await waitFor(actor, (s) => s.matches('unexpectedStep'));
    expect(calls).toHaveLength(2);
    expect(actor.getSnapshot().context.sessionId).toBe('sess-2');
  });

  it('ignores retry while starting and in the unexpected-step state', async () => {
    const calls = stubFetch({ status: 200, body: { success: true, session_id: 'sess-1' } });
    const actor = createActor(kycMachine, { input: {} }).start();
    actor.send({ type: 'kyc.retry' });
    await waitFor(actor, (s) => s.matches('unexpectedStep'));
    actor.send({ type: 'kyc.retry' });
    expect(actor.getSnapshot().value).toBe('unexpectedStep');
    expect(calls).toHaveLength(1);
  });

  it('fixtures cover every screen', () => {
    expect(new Set(Object.values(kycFixtures).map(selectKycScreen))).toEqual(
      new Set(['loading', 'failed', 'unexpectedStep']),
    );
  });
});

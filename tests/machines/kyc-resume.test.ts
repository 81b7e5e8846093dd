import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import { kycMachine } from '../../machines/kyc/kyc.machine';
import { ensureSession } from '../../machines/kyc/kyc.actors';
import { selectHandoffPlace, selectKycView } from '../../machines/kyc/kyc.selectors';
import { selectKycResumed } from '../../machines/onboarding/onboarding.selectors';
import type { KycSession } from '../../machines/kyc/kyc.types';
import { harness, jpeg, verified } from './kyc.harness';

/** Step 4 of a resumed registration, and the handoff to the phone (issue 18). */

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const TOKEN = 'R'.repeat(43);

describe('kyc machine: a resumed registration', () => {
  it('a passed selfie continues at the document, in the session it passed in', async () => {
    const h = harness(['kyc-9'], true, {
      input: { sessionId: 'kyc-9', registrationToken: TOKEN, resume: { at: 'document' } },
    });
    expect(h.session.calls[0]!.input).toEqual({ sessionId: 'kyc-9', registrationToken: TOKEN });
    await h.answerSession();
    expect(h.actor.getSnapshot().matches({ document: 'live' })).toBe(true);
    expect(h.actor.getSnapshot().context).toMatchObject({
      sessionId: 'kyc-9',
      side: 'front',
      resume: null,
    });
  });

  it("'Retomamos tu registro' shows on the first screen only, not on the later ones (issue 29 item 13)", async () => {
    const h = harness(['kyc-9'], true, {
      input: { sessionId: 'kyc-9', registrationToken: TOKEN, resume: { at: 'document' } },
    });
    await h.answerSession();
    expect(selectKycResumed(h.actor.getSnapshot())).toBe(true);
    h.actor.send({ type: 'document.upload', file: jpeg('front-file') });
    h.scaling.calls.at(-1)!.answer.resolve(jpeg('front'));
    await h.flush();
    expect(h.actor.getSnapshot().matches({ document: 'preview' })).toBe(true);
    expect(selectKycResumed(h.actor.getSnapshot())).toBe(false);
    // Back to the front's camera ('Elegir otra imagen'): not the first screen after the resume.
    h.actor.send({ type: 'document.retake' });
    expect(h.actor.getSnapshot().matches({ document: 'live' })).toBe(true);
    expect(selectKycResumed(h.actor.getSnapshot())).toBe(false);
  });

  it('a fresh step 4 (not resumed) never shows it', async () => {
    const h = harness(['kyc-9']);
    await h.answerSession();
    expect(selectKycResumed(h.actor.getSnapshot())).toBe(false);
  });

  it('a read document continues at its review, with what the session read', async () => {
    const h = harness(['kyc-9'], true, {
      input: { sessionId: 'kyc-9', resume: { at: 'review', kycResult: verified } },
    });
    await h.answerSession();
    expect(h.actor.getSnapshot().matches({ review: 'showing' })).toBe(true);
    expect(h.actor.getSnapshot().context.kycResult).toEqual(verified);
    expect(selectKycView(h.actor.getSnapshot()).screen).toBe('review');
    expect(selectKycResumed(h.actor.getSnapshot())).toBe(true);
    h.actor.send({ type: 'review.confirm' });
    expect(selectKycResumed(h.actor.getSnapshot())).toBe(false);
  });

  it('a retry after a rejection starts at the selfie, bound to the same registration', async () => {
    const h = harness(['kyc-9', 'kyc-10'], true, {
      input: {
        sessionId: 'kyc-9',
        registrationToken: TOKEN,
        resume: { at: 'review', kycResult: verified },
      },
    });
    await h.answerSession();
    h.actor.send({ type: 'review.retry' });
    h.reject.calls[0]!.answer.resolve();
    await h.flush();
    expect(h.session.calls.at(-1)!.input).toEqual({ sessionId: null, registrationToken: TOKEN });
    await h.answerSession();
    expect(h.actor.getSnapshot().matches('selfie')).toBe(true);
  });
});

describe('kyc machine: a cédula already registered (issue 29 item 10)', () => {
  const inRegistration = () => harness(['kyc-9'], true, { input: { registrationToken: TOKEN } });

  it("is said as soon as the card is read, before the review and 'Finalizar'", async () => {
    const h = inRegistration();
    await h.toVerifying();
    h.verify.calls[0]!.answer.resolve(verified);
    await h.flush();
    // Still 'Verificando tu identidad' while the number is looked up, for this session only.
    expect(h.value()).toBe('checkingDocument');
    expect(selectKycView(h.actor.getSnapshot()).screen).toBe('verifying');
    expect(h.actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(h.check.calls.map((c) => c.input)).toEqual([
      { registrationToken: TOKEN, sessionId: 'kyc-9' },
    ]);
    h.check.calls[0]!.answer.resolve(true);
    await h.flush();
    expect(selectKycView(h.actor.getSnapshot()).screen).toBe('documentRegistered');
    // Nothing goes on from there: no review, no supplementary data, no register call.
    h.actor.send({ type: 'review.confirm' });
    expect(h.value()).toBe('documentRegistered');
  });

  it('a cédula of nobody goes on to the review; no answer does too (the register call still checks)', async () => {
    for (const answer of ['free', 'error'] as const) {
      const h = inRegistration();
      await h.toVerifying();
      h.verify.calls[0]!.answer.resolve(verified);
      await h.flush();
      if (answer === 'free') h.check.calls[0]!.answer.resolve(false);
      else h.check.calls[0]!.answer.reject(new TypeError('Failed to fetch'));
      await h.flush();
      expect(h.actor.getSnapshot().matches({ review: 'showing' })).toBe(true);
    }
  });

  it('outside a registration (no token) there is nothing to look up', async () => {
    const h = harness();
    await h.toVerifying();
    h.verify.calls[0]!.answer.resolve(verified);
    await h.flush();
    expect(h.actor.getSnapshot().matches({ review: 'showing' })).toBe(true);
    expect(h.check.calls).toHaveLength(0);
  });
});

describe("kyc machine: 'Seguir en mi celular'", () => {
  /** A parent that records what its KYC child sends it. */
  function parentOf(canHandoff: boolean) {
    const received: object[] = [];
    const parent = createMachine({
      invoke: {
        id: 'kyc',
        src: kycMachine.provide({
          actors: { ensureSession: fromPromise(() => new Promise<KycSession>(() => {})) },
        }),
        input: { canHandoff },
      },
      on: { 'handoff.start': { actions: ({ event }) => received.push(event) } },
    });
    const actor = createActor(parent).start();
    const kyc = actor.getSnapshot().children.kyc!;
    return { received, kyc };
  }

  it('is forwarded to the wizard where it is offered', () => {
    const { received, kyc } = parentOf(true);
    kyc.send({ type: 'handoff.start' });
    expect(received).toEqual([{ type: 'handoff.start', cameraMissing: false }]);
  });

  it('is not offered on the phone the link opened', () => {
    const { received, kyc } = parentOf(false);
    kyc.send({ type: 'handoff.start' });
    expect(received).toEqual([]);
  });

  it('the selfie offers it when the camera fails, and also by choice', async () => {
    const h = harness(['sess-1'], true, { input: { canHandoff: true } });
    await h.answerSession();
    h.camera.last().send({ type: 'camera.error', code: 'permissionDenied' });
    expect(selectKycView(h.actor.getSnapshot()).canHandoff).toBe(true);
    const off = harness(['sess-1'], true, { input: { canHandoff: false } });
    await off.answerSession();
    off.camera.last().send({ type: 'camera.error', code: 'permissionDenied' });
    expect(selectKycView(off.actor.getSnapshot()).canHandoff).toBe(false);
  });

  /** Step 4 under a parent that records what it forwards, its camera and calls under test. */
  function underWizard() {
    const received: object[] = [];
    const h = harness(['sess-1'], false);
    const parent = createMachine({
      invoke: { id: 'kyc', src: h.machine, input: { canHandoff: true } },
      on: { 'handoff.start': { actions: ({ event }) => received.push(event) } },
    });
    const kyc = createActor(parent).start().getSnapshot().children.kyc!;
    return { received, h, kyc };
  }

  it('without a camera it is the first action, and the wizard hears that the camera is missing (issue 29 item 12)', async () => {
    const { received, h, kyc } = underWizard();
    const place = () => selectHandoffPlace(kyc.getSnapshot() as never);
    await h.answerSession();
    expect(place()).toBe('last');
    // A refused permission: first too (the camera cannot be used now), but the device has one.
    h.camera.last().send({ type: 'camera.error', code: 'permissionDenied' });
    expect(place()).toBe('first');
    kyc.send({ type: 'handoff.start' });
    expect(received).toEqual([{ type: 'handoff.start', cameraMissing: false }]);
  });

  it('a device with no camera at all tells the wizard so', async () => {
    const { received, h, kyc } = underWizard();
    await h.answerSession();
    h.camera.last().send({ type: 'camera.error', code: 'notFound' });
    expect(selectHandoffPlace(kyc.getSnapshot() as never)).toBe('first');
    kyc.send({ type: 'handoff.start' });
    expect(received).toEqual([{ type: 'handoff.start', cameraMissing: true }]);
  });
});

describe('ensureSession', () => {
  it('binds a new session to the registration; a held session is not created nor bound again', async () => {
    const calls: Array<{ url: string; body: unknown }> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push({ url, body: JSON.parse(String(init.body)) });
        const body = url.endsWith('/start-kyc')
          ? { success: true, session_id: 'kyc-new', liveness_seconds: 120 }
          : { success: true };
        return new Response(JSON.stringify(body), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    try {
      const fresh = createActor(ensureSession, {
        input: { sessionId: null, registrationToken: TOKEN },
      }).start();
      await waitFor(fresh, (s) => s.status === 'done');
      // A server that names no challenge (before issue 31): 'none'.
      expect(fresh.getSnapshot().output).toEqual({
        sessionId: 'kyc-new',
        livenessMs: 120_000,
        challenge: 'none',
      });
      expect(calls).toEqual([
        { url: '/api/onboarding/start-kyc', body: {} },
        {
          url: '/api/onboarding/registration/kyc',
          body: { registrationToken: TOKEN, sessionId: 'kyc-new' },
        },
      ]);
      const held = createActor(ensureSession, {
        input: { sessionId: 'kyc-9', registrationToken: TOKEN },
      }).start();
      await waitFor(held, (s) => s.status === 'done');
      expect(calls).toHaveLength(2);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

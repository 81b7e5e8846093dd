/**
 * Issue 41, the right distance said on screen: the framing the server answered stands on the oval
 * until a later answer says otherwise (no flicker between empty and the hint), at once when the
 * answer comes, and 3 s without progress on the challenge say why. The KYC machine on fake timers,
 * its sampling actor a probe the test answers through (tests/machines/kyc.harness.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LivenessFraming, LivenessResponse } from '../../contract/identity';
import { kycFixtures } from '../../machines/kyc/kyc.fixtures';
import {
  framingAfter,
  framingHints,
  progressOf,
  showsProgress,
  STALL_MS,
} from '../../machines/kyc/kyc.framing';
import { selectSelfieView } from '../../machines/kyc/kyc.selectors';
import { harness } from './kyc.harness';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const WAIT = 'Esperá la señal y parpadeá.';
const count = (n: number) => `Parpadeos: ${n} de 3.`;
const DUPLICATE = 'frame duplicado: la imagen se repite, no cuenta.';
const answer = (feedback: string[], framing?: LivenessFraming[]): LivenessResponse => ({
  feedback,
  liveness_detected: false,
  time_up: false,
  ...(framing ? { framing } : {}),
});

describe('kyc.framing (pure)', () => {
  it('progress is an answer whose visible lines changed; an answer without any says nothing', () => {
    expect(progressOf(answer([WAIT, count(0)]))).toBe(`${WAIT}\n${count(0)}`);
    expect(progressOf(answer([]))).toBeNull();
    expect(progressOf(answer([DUPLICATE]))).toBeNull();
    expect(progressOf(answer([], ['too_far']))).toBeNull();
    expect(showsProgress(null, answer([WAIT, count(0)]))).toBe(true);
    expect(showsProgress(`${WAIT}\n${count(0)}`, answer([WAIT, count(0)]))).toBe(false);
    expect(showsProgress(`${WAIT}\n${count(0)}`, answer([WAIT, count(1)]))).toBe(true);
    expect(showsProgress(`${WAIT}\n${count(0)}`, answer([DUPLICATE]))).toBe(false);
  });

  it('a framing stands until another framing or progress', () => {
    expect(framingAfter([], answer([], ['too_far']), false)).toEqual(['too_far']);
    expect(framingAfter(['too_far'], answer([], ['too_close']), false)).toEqual(['too_close']);
    expect(framingAfter(['too_far'], answer([]), false)).toEqual(['too_far']);
    expect(framingAfter(['too_far'], answer([WAIT, count(0)]), false)).toEqual(['too_far']);
    expect(framingAfter(['too_far'], answer([WAIT, count(1)]), true)).toEqual([]);
  });

  it('the oval says the standing framing, else after the stall the generic hint', () => {
    expect(framingHints(['too_close'], false)).toEqual(['too_close']);
    expect(framingHints(['too_close'], true)).toEqual(['too_close']);
    expect(framingHints([], true)).toEqual(['stalled']);
    expect(framingHints([], false)).toEqual([]);
    expect(STALL_MS).toBe(3000);
  });
});

/** The machine running the selfie, with what the oval said after each change, in time. */
async function running() {
  const h = harness();
  await h.toRunning();
  const said: Array<{ at: number; framing: string }> = [];
  const start = Date.now();
  h.actor.subscribe((s) => {
    const framing = selectSelfieView(s).framing.join(' ');
    if (said.at(-1)?.framing !== framing) said.push({ at: Date.now() - start, framing });
  });
  const view = () => selectSelfieView(h.actor.getSnapshot());
  const reply = (result: LivenessResponse) =>
    h.sampling.last().send({ type: 'poll.result', result });
  return { h, said, view, reply };
}

describe('the framing on the oval', () => {
  it('shows at once, and stands through answers that say nothing or only repeat the count', async () => {
    const { view, reply, said } = await running();
    reply(answer([WAIT, count(0)]));
    await vi.advanceTimersByTimeAsync(700);
    reply(answer([], ['too_far']));
    // Within 1 s of the frame: at once, with the answer.
    expect(view().framing).toEqual(['too_far']);
    // The face a little small: the server's frames alternate between 'too far', frames it
    // skipped as unchanged (the count again) and duplicates, for 40 s. The hint never goes.
    const replies = [
      answer([WAIT, count(0)]),
      answer([DUPLICATE]),
      answer([], ['too_far']),
      answer([]),
    ];
    for (let i = 0; i < 57; i += 1) {
      await vi.advanceTimersByTimeAsync(700);
      reply(replies[i % replies.length]!);
      expect(view().framing).toEqual(['too_far']);
    }
    expect(said.map((s) => s.framing)).toEqual(['', 'too_far']);
    // The lines below the oval stay too (a duplicate-only answer keeps the last ones).
    expect(view().feedback).toEqual([WAIT, count(0)]);
  });

  it('another framing replaces it; progress on the challenge ends it', async () => {
    const { view, reply } = await running();
    reply(answer([], ['too_close']));
    expect(view().framing).toEqual(['too_close']);
    reply(answer([], ['no_face']));
    expect(view().framing).toEqual(['no_face']);
    await vi.advanceTimersByTimeAsync(700);
    reply(answer([], ['too_far', 'not_centred']));
    expect(view().framing).toEqual(['too_far', 'not_centred']);
    // The face back in the oval: the first answer with where the challenge stands is progress.
    reply(answer([WAIT, count(0)]));
    expect(view().framing).toEqual([]);
    reply(answer([], ['too_far']));
    reply(answer([WAIT, count(0)]));
    expect(view().framing).toEqual(['too_far']);
    // A blink on cue counted.
    reply(answer([WAIT, count(1)]));
    expect(view().framing).toEqual([]);
  });

  it("3 s without progress say why: 'Mantené tu cara dentro del óvalo', or the framing", async () => {
    const { view, reply, h } = await running();
    await vi.advanceTimersByTimeAsync(STALL_MS - 1);
    expect(view().framing).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(h.actor.getSnapshot().matches({ selfie: { running: 'stalled' } })).toBe(true);
    expect(view().framing).toEqual(['stalled']);
    // Progress: said no more, and the 3 s start again.
    reply(answer([WAIT, count(0)]));
    expect(view().framing).toEqual([]);
    await vi.advanceTimersByTimeAsync(2000);
    // The same count again is no progress.
    reply(answer([WAIT, count(0)]));
    await vi.advanceTimersByTimeAsync(999);
    expect(view().framing).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(view().framing).toEqual(['stalled']);
    // A framing standing is the reason given.
    reply(answer([], ['too_close']));
    expect(view().framing).toEqual(['too_close']);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(view().framing).toEqual(['too_close']);
    expect(view().phase).toBe('running');
  });

  it('a cue shown or a colour painted is the challenge under way: the 3 s start again', async () => {
    const { view, h } = await running();
    const send = (e: Parameters<ReturnType<typeof h.sampling.last>['send']>[0]) =>
      h.sampling.last().send(e);
    await vi.advanceTimersByTimeAsync(2500);
    send({ type: 'cue.show', cue: { n: 1, of: 3, at: 2500, until: 3800 } });
    await vi.advanceTimersByTimeAsync(2500);
    send({ type: 'cue.hide' });
    send({ type: 'light.show', index: 0, colour: '#ffd27a' });
    await vi.advanceTimersByTimeAsync(2999);
    expect(view().framing).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(view().framing).toEqual(['stalled']);
  });

  it('nothing of it stays once the selfie stops, and a new run starts clean', async () => {
    const { view, reply, h } = await running();
    reply(answer([], ['too_far']));
    h.actor.send({ type: 'liveness.stop' });
    expect(view().framing).toEqual([]);
    expect(h.actor.getSnapshot().context.framing).toEqual([]);
    h.actor.send({ type: 'liveness.start' });
    expect(view().framing).toEqual([]);
    await vi.advanceTimersByTimeAsync(STALL_MS);
    expect(view().framing).toEqual(['stalled']);
  });
});

describe('selectSelfieView framing', () => {
  it.each([
    ['selfieTooFar', ['too_far']],
    ['selfieTooClose', ['too_close']],
    ['selfieNoFace', ['no_face']],
    ['selfieSeveralFaces', ['several_faces']],
    ['selfieTooDark', ['too_dark']],
    ['selfieNotCentred', ['not_centred']],
    ['selfieStalled', ['stalled']],
    ['selfieStalledTooFar', ['too_far']],
    ['selfieRunning', []],
    ['selfieIdle', []],
  ] as const)('%s: %j', (fixture, framing) => {
    expect(selectSelfieView(kycFixtures[fixture]).framing).toEqual(framing);
  });

  it('says nothing outside the running selfie, whatever the context holds', () => {
    const idle = kycFixtures.selfieIdle;
    const s = idle.machine.resolveState({
      value: idle.value,
      context: { ...idle.context, framing: ['too_far'] },
    });
    expect(selectSelfieView(s).framing).toEqual([]);
  });
});

/**
 * Issue 31, the browser's side of the liveness challenge: the KYC machine with its real sampling
 * actor (kyc.actors.ts createLivenessSampling) on fake timers, the camera and the server faked.
 * One clock per KYC session from its first frame; each frame tagged with its time and the colour
 * painted when it was captured; the cue and the colours shown when the server's answer says, a late
 * answer skipping what is past; the camera named once per run.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  LivenessChallenge,
  LivenessLight,
  LivenessMeta,
  LivenessResponse,
} from '../../contract/identity';
import { FRAMING_PROBE_FRAMES } from '../../contract/frame-policy';
import { createLivenessSampling, type SamplingEnv } from '../../machines/kyc/kyc.actors';
import {
  challengeCueAt,
  cueAt,
  judgedForLight,
  lightIndexAt,
  nextChange,
  paintedAt,
} from '../../machines/kyc/kyc.challenge';
import { selectSelfieView } from '../../machines/kyc/kyc.selectors';
import { selectAssistOffer } from '../../machines/kyc/kyc.assist.selectors';
import { livenessErrorFrom } from '../../machines/kyc/kyc.errors';
import { ApiError, toFlowError } from '../../machines/shared/errors';
import { cameraOf } from '../../machines/shared/frame-capture';
import { harness, stream as bareStream } from './kyc.harness';

type Call = { sessionId: string; frames: number; meta: LivenessMeta; at: number };
type Respond = (call: Call, index: number) => LivenessResponse | Promise<LivenessResponse>;

const waiting = (challenge?: LivenessChallenge): LivenessResponse => ({
  feedback: [],
  liveness_detected: false,
  time_up: false,
  ...(challenge ? { challenge } : {}),
});

/** A camera whose track names itself (what `cameraOf` reads). */
const camera = {
  ...bareStream,
  getVideoTracks: () => [{ label: 'OBS Virtual Camera', getSettings: () => ({ frameRate: 30 }) }],
} as unknown as MediaStream;

/** The sampling actor on fake timers: a frame every `captureEveryMs`, the server answering `respond`. */
function fakeEnv(respond: Respond) {
  const calls: Call[] = [];
  let capturing = 0;
  /** The backlight guard: streams it looked at, and guards still running. */
  const backlight = { started: [] as MediaStream[], running: 0 };
  const env: SamplingEnv = {
    now: () => Date.now(),
    capture: (_stream, policy, onFrame) => {
      capturing += 1;
      const timer = setInterval(
        () => onFrame({ capturedAt: Date.now(), data: new Blob(['jpeg']) }),
        policy.captureEveryMs,
      );
      return () => {
        capturing -= 1;
        clearInterval(timer);
      };
    },
    camera: cameraOf,
    post: async (sessionId, frames, _signal, meta) => {
      const call = { sessionId, frames: frames.length, meta: meta!, at: Date.now() };
      calls.push(call);
      return respond(call, calls.length - 1);
    },
    backlight: (stream) => {
      backlight.started.push(stream);
      backlight.running += 1;
      return () => {
        backlight.running -= 1;
      };
    },
  };
  return { env, calls, capturing: () => capturing, backlight };
}

/** The machine with a real sampling actor, its session answered ('cues,light' unless said). */
async function running(respond: Respond, challenge: 'cues,light' | 'cues' | 'none' = 'cues,light') {
  const fake = fakeEnv(respond);
  const h = harness(
    [
      { sessionId: 'sess-1', challenge },
      { sessionId: 'sess-2', challenge },
    ],
    true,
    { livenessSampling: createLivenessSampling(fake.env) },
  );
  await h.answerSession();
  h.camera.last().send({ type: 'camera.ready', stream: camera });
  // What the page showed, on the challenge's clock: each change of the colour and of the cue.
  const shown: Array<{ t: number; colour: string | null; cue: boolean }> = [];
  h.actor.subscribe((s) => {
    const origin = s.context.clockOrigin;
    const last = shown.at(-1) ?? { t: -1, colour: null, cue: false };
    const now = {
      t: Date.now() - (origin ?? 0),
      colour: s.context.lightColour,
      cue: s.context.cue !== null,
    };
    if (origin === null || (last.colour === now.colour && last.cue === now.cue)) return;
    // Changes at the same moment (the cue and a colour) are one change of the page.
    if (last.t === now.t) shown.pop();
    shown.push(now);
  });
  h.actor.send({ type: 'liveness.start' });
  return { ...fake, h, shown };
}

const A = '#ffe0a0';
const B = '#a0c8ff';
const C = '#c8ffa0';
/** Three colours on the clock from `start`, 700 ms each (off the 125 ms frame grid: no ties). */
const light = (start: number, round = 1, colours = [A, B, C]): LivenessLight => ({
  round,
  colours: colours.map((colour, i) => ({
    colour,
    from: start + i * 700,
    to: start + (i + 1) * 700,
  })),
});

/** Every frame tag the server received, in order. */
const tags = (calls: Call[]) => calls.flatMap((c) => c.meta.frames);

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(0);
});
afterEach(() => vi.useRealTimers());

describe('the challenge timeline (kyc.challenge.ts)', () => {
  it('says what shows at a moment and when it changes next', () => {
    const seq = light(1010);
    const cue = { n: 1, of: 3, at: 1500, until: 3000 };
    expect([1009, 1010, 1709, 1710, 3109, 3110].map((t) => lightIndexAt(seq, t))).toEqual([
      -1, 0, 0, 1, 2, -1,
    ]);
    expect([1499, 1500, 2999, 3000].map((t) => cueAt(cue, t) !== null)).toEqual([
      false,
      true,
      true,
      false,
    ]);
    expect(nextChange({ cue, light: seq }, 1200)).toBe(1500);
    expect(nextChange({ cue, light: seq }, 1500)).toBe(1710);
    expect(nextChange({ cue, light: seq }, 3110)).toBeNull();
    expect(paintedAt([{ t: 10, index: 0 }], 9)).toBe(-1);
  });

  it("a frame counts for the light once its colour settled, painted with that colour, until the colour's end", () => {
    const light = {
      round: 1,
      colours: [
        { colour: '#ff6040', from: 1000, to: 1700 },
        { colour: '#40ff60', from: 1700, to: 2400 },
      ],
    };
    const at = (t: number, painted: number) => judgedForLight(light, { t, light: painted });
    expect([at(1100, 0), at(1250, 0), at(1700, 0), at(1800, 1), at(2000, 1)]).toEqual([
      false,
      true,
      true,
      false,
      true,
    ]);
    // Nothing painted yet (a late answer), an index the round has not, or no round: not for the light.
    expect([at(1300, -1), at(1300, 5), judgedForLight(null, { t: 1300, light: 0 })]).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('shows the cues the server sent ahead at their own times, without another answer', () => {
    const cue = { n: 1, of: 3, at: 1500, until: 3000 };
    const next_cue = { n: 2, of: 3, at: 4000, until: 5500 };
    const later_cue = { n: 3, of: 3, at: 6000, until: 7500 };
    const challenge = { cue, next_cue, later_cue, light: null };
    expect(
      [1500, 3500, 4000, 5499, 5500, 6000, 7499, 7500].map(
        (t) => challengeCueAt(challenge, t)?.n ?? null,
      ),
    ).toEqual([1, null, 2, 2, null, 3, 3, null]);
    expect(nextChange(challenge, 3000)).toBe(4000);
    expect(nextChange(challenge, 4000)).toBe(5500);
    expect(nextChange(challenge, 5500)).toBe(6000);
    expect(nextChange(challenge, 6000)).toBe(7500);
  });
});

describe('kyc machine: the selfie challenge (issue 31)', () => {
  it('paints the colours and shows the cue when the answer says, and tags each frame with the colour painted when it was captured', async () => {
    const challenge: LivenessChallenge = {
      cue: { n: 1, of: 3, at: 1500, until: 3000 },
      light: light(1010),
    };
    const r = await running(() => waiting(challenge));
    await vi.advanceTimersByTimeAsync(5_000);
    // The first frame started the clock; the server got every frame in order, on that clock.
    const origin = r.h.actor.getSnapshot().context.clockOrigin;
    expect(origin).toBe(125);
    const sent = tags(r.calls);
    expect(sent[0]).toEqual({ t: 0, light: -1 });
    expect(sent.map((f) => f.t)).toEqual(sent.map((_f, i) => i * 125));
    // The page showed each colour from its `from` to its `to`, then nothing; the cue in its window.
    expect(r.shown).toEqual([
      { t: 1010, colour: A, cue: false },
      { t: 1500, colour: A, cue: true },
      { t: 1710, colour: B, cue: true },
      { t: 2410, colour: C, cue: true },
      { t: 3000, colour: C, cue: false },
      { t: 3110, colour: null, cue: false },
    ]);
    // Each frame's tag is the colour the page was told to paint when the frame was captured.
    const index = (colour: string | null) => (colour ? [A, B, C].indexOf(colour) : -1);
    const paintedWhen = (t: number) => index(r.shown.findLast((s) => s.t <= t)?.colour ?? null);
    expect(sent.length).toBeGreaterThan(30);
    for (const f of sent) expect(f.light, `frame at ${f.t}`).toBe(paintedWhen(f.t));
    expect(new Set(sent.map((f) => f.light))).toEqual(new Set([-1, 0, 1, 2]));
    // The view shows what the machine holds.
    r.h.actor.send({ type: 'liveness.stop' });
    expect(selectSelfieView(r.h.actor.getSnapshot())).toMatchObject({
      cue: false,
      lightColour: null,
    });
  });

  /**
   * A cue from 1500 ms to `until` on a slow uplink: the first answer at once, then each one 2.5 s
   * later (20 frames captured per request, 8 sent). The requests, and the frames' times sent.
   */
  async function slowUplink(until: number) {
    const challenge: LivenessChallenge = { cue: { n: 1, of: 3, at: 1500, until }, light: null };
    const r = await running(async (_call, i) => {
      if (i > 0) await new Promise((done) => setTimeout(done, 2_500));
      return waiting(challenge);
    });
    await vi.advanceTimersByTimeAsync(9_000);
    return { calls: r.calls, sent: tags(r.calls).map((f) => f.t) };
  }

  it('on a slow uplink, sends every frame captured while the cue showed and thins the others', async () => {
    const r = await slowUplink(2500);
    const sent = r.sent;
    const inWindow = Array.from({ length: 8 }, (_, k) => 1500 + k * 125);
    expect(sent.filter((t) => t >= 1500 && t < 2500)).toEqual(inWindow);
    // The request that carried them had room for nothing else.
    const carrier = r.calls.find((c) => c.meta.frames.some((f) => f.t === 1500))!;
    expect(carrier.meta.frames.map((f) => f.t)).toEqual(inWindow);
    // Frames outside the window were thinned.
    expect(sent.filter((t) => t >= 2500 && t < 6000).length).toBeLessThan((6000 - 2500) / 125);
  });

  it('on a slow uplink, a cue longer than a request keeps every frame where the answering blink closes (issue 41)', async () => {
    const { sent } = await slowUplink(3000);
    // 12 frames showed the cue, 8 went: all of those from 250 to 1050 ms after it showed.
    expect(sent.filter((t) => t >= 1500 && t < 3000)).toHaveLength(8);
    const answer = Array.from({ length: 7 }, (_, k) => 1750 + k * 125);
    for (const t of answer) expect(sent, `frame at ${t}`).toContain(t);
  });

  it('a late answer shows what is current now and skips what is past', async () => {
    let release: (answer: LivenessResponse) => void = () => {};
    const challenge: LivenessChallenge = {
      cue: { n: 1, of: 3, at: 1500, until: 3000 },
      light: light(1010),
    };
    const r = await running((_call, i) => {
      if (i < 2) return waiting({ cue: null, light: null });
      if (i === 2) return new Promise<LivenessResponse>((resolve) => (release = resolve));
      return waiting(challenge);
    });
    // The third request (at 1400 ms: the first frame went alone at 0, the next at 700) is answered
    // only when the clock is past the first colour.
    await vi.advanceTimersByTimeAsync(125 + 1_800);
    expect(r.shown).toEqual([]);
    release(waiting(challenge));
    await vi.advanceTimersByTimeAsync(3_000);
    expect(r.shown).toEqual([
      { t: 1800, colour: B, cue: true },
      { t: 2410, colour: C, cue: true },
      { t: 3000, colour: C, cue: false },
      { t: 3110, colour: null, cue: false },
    ]);
    // The first colour was never painted, so no frame says it was.
    expect(tags(r.calls).some((f) => f.light === 0)).toBe(false);
    expect(
      tags(r.calls)
        .filter((f) => f.t >= 1800 && f.t < 2410)
        .every((f) => f.light === 1),
    ).toBe(true);

    // A cue whose window is already over when the answer comes (500 ms after its request) never
    // shows.
    const late = await running(
      () =>
        new Promise<LivenessResponse>((resolve) =>
          setTimeout(
            () => resolve(waiting({ cue: { n: 2, of: 2, at: 100, until: 400 }, light: null })),
            500,
          ),
        ),
    );
    await vi.advanceTimersByTimeAsync(3_000);
    expect(late.shown.some((s) => s.cue)).toBe(false);
  });

  it('while the oval asks to move, a request carries only the newest frames; framed, every frame again (issue 41)', async () => {
    const r = await running((_call, i) => ({
      ...waiting({ cue: null, light: null }),
      ...(i < 2 ? { framing: ['too_far' as const] } : {}),
    }));
    await vi.advanceTimersByTimeAsync(125 + 700 * 3 + 10);
    const [first, second, third, fourth] = r.calls.map((c) => c.meta.frames.map((f) => f.t));
    expect(first).toEqual([0]);
    // Two answers said 'too_far': their next requests took the newest two of the frames since.
    expect([second!.length, third!.length]).toEqual([FRAMING_PROBE_FRAMES, FRAMING_PROBE_FRAMES]);
    expect(second!.at(-1)! - second![0]!).toBe(125);
    expect(third![0]).toBeGreaterThan(second!.at(-1)!);
    // A framed answer: every frame captured since, as before.
    expect(fourth!.length).toBeGreaterThan(FRAMING_PROBE_FRAMES);
    expect(fourth!.slice(1).every((t, k) => t - fourth![k]! === 125)).toBe(true);
  });

  it("the run's first frame goes at once, alone, then every frame since, every 700 ms (issue 41 item 2: the first hint one small round trip after the camera's first picture)", async () => {
    const r = await running(() => waiting({ cue: null, light: null }));
    await vi.advanceTimersByTimeAsync(125 + 700 * 2 + 10);
    const [first, second, third] = r.calls;
    // The camera's first picture at 125 ms (the fake's first capture): the request at once (the
    // timer's least tick later), the next ones 700 ms apart.
    expect(first!.frames).toBe(1);
    expect(first!.at - 125).toBeLessThanOrEqual(1);
    expect(first!.meta.frames.map((f) => f.t)).toEqual([0]);
    expect([second!.at - first!.at, third!.at - second!.at]).toEqual([700, 700]);
    // Nothing captured is left behind: the second request goes on from the first frame.
    const t = second!.meta.frames.map((f) => f.t);
    expect(t[0]).toBe(125);
    expect(t.length).toBeGreaterThanOrEqual(5);
    expect(t.slice(1).every((x, k) => x - t[k]! === 125)).toBe(true);
  });

  it('a new round replaces the sequence still showing', async () => {
    const first: LivenessChallenge = { cue: null, light: light(1010) };
    // The new round is asked from the answer after 1500 ms of clock on.
    const second: LivenessChallenge = { cue: null, light: light(2600, 2, [C, A, B]) };
    const r = await running((call) => waiting(call.meta.frames.at(-1)!.t < 1500 ? first : second));
    await vi.advanceTimersByTimeAsync(6_000);
    const answeredAt = r.calls.find((c) => c.meta.frames.at(-1)!.t >= 1500)!;
    const switched = r.shown.find((s) => s.t > 1500 && s.colour === null)!;
    // Round 1's B stopped when round 2 came (nothing until round 2's first colour), then round 2.
    expect(r.shown.map((s) => s.colour)).toEqual([A, B, null, C, A, B, null]);
    expect(switched.t).toBeGreaterThanOrEqual(answeredAt.at - 125);
    expect(switched.t).toBeLessThan(2410);
    expect(r.shown.slice(-4).map((s) => s.t)).toEqual([2600, 3300, 4000, 4700]);
  });

  it("keeps one clock per session across 'Detener' and 'Iniciar validación', and names the camera once per run", async () => {
    const r = await running(() => waiting({ cue: null, light: null }));
    await vi.advanceTimersByTimeAsync(2_000);
    const firstRun = r.calls.length;
    r.h.actor.send({ type: 'liveness.stop' });
    expect(r.capturing()).toBe(0);
    await vi.advanceTimersByTimeAsync(5_000);
    r.h.actor.send({ type: 'liveness.start' });
    await vi.advanceTimersByTimeAsync(2_000);
    const before = tags(r.calls.slice(0, firstRun));
    const after = tags(r.calls.slice(firstRun));
    // The second run's frames go on from the first run's clock: no going back to 0.
    expect(r.h.actor.getSnapshot().context.clockOrigin).toBe(125);
    expect(after[0]!.t).toBeGreaterThanOrEqual(before.at(-1)!.t + 5_000);
    expect(after.map((f) => f.t)).toEqual([...after.map((f) => f.t)].sort((x, y) => x - y));
    // The camera's label and frame rate on the first request of each run only.
    const named = r.calls.map((c) => c.meta.camera ?? null);
    expect(named[0]).toEqual({ label: 'OBS Virtual Camera', frame_rate: 30 });
    expect(named[firstRun]).toEqual(named[0]);
    expect(named.filter((c) => c !== null)).toHaveLength(2);
    expect(firstRun).toBeGreaterThan(1);
    expect(r.calls.length - firstRun).toBeGreaterThan(1);
  });

  it("'Detener' in the middle of the colours: the next run shows the current colour at once", async () => {
    const r = await running(() => waiting({ cue: null, light: light(1010) }));
    await vi.advanceTimersByTimeAsync(125 + 1_200);
    expect(r.h.actor.getSnapshot().context.lightColour).toBe(A);
    r.h.actor.send({ type: 'liveness.stop' });
    expect(r.h.actor.getSnapshot().context.lightColour).toBeNull();
    await vi.advanceTimersByTimeAsync(600);
    r.h.actor.send({ type: 'liveness.start' });
    // At 1800 on the clock: B, without waiting for an answer.
    expect(r.h.actor.getSnapshot().context.lightColour).toBe(B);
  });

  it('a new session starts a new clock', async () => {
    const r = await running(() => waiting({ cue: null, light: null }));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(r.h.actor.getSnapshot().context.clockOrigin).toBe(125);
    r.h.actor.send({
      type: 'poll.error',
      error: { code: 'server', status: 500 },
    });
    expect(r.h.value()).toEqual({ selfie: 'failed' });
    r.h.actor.send({ type: 'liveness.start' });
    await r.h.answerSession();
    expect(r.h.actor.getSnapshot().context).toMatchObject({
      sessionId: 'sess-2',
      clockOrigin: null,
      challengeAsked: null,
    });
  });

  it('a session the wizard held (no mode known): its answers say the mode', async () => {
    const r = await running((_call, i) =>
      waiting(i === 0 ? { cue: null, light: null } : { cue: null, light: light(2000) }),
    );
    // As if start-kyc had not been asked (the wizard's own session): 'none' until an answer.
    r.h.actor.send({ type: 'liveness.stop' });
    expect(r.h.actor.getSnapshot().context.challenge).toBe('cues,light');
    const held = await running(
      (_call, i) =>
        waiting(i === 0 ? { cue: null, light: null } : { cue: null, light: light(2000) }),
      'none',
    );
    await vi.advanceTimersByTimeAsync(125 + 700);
    expect(held.h.actor.getSnapshot().context.challenge).toBe('cues');
    await vi.advanceTimersByTimeAsync(700);
    expect(held.h.actor.getSnapshot().context.challenge).toBe('cues,light');
    held.h.actor.send({ type: 'liveness.stop' });
    expect(selectSelfieView(held.h.actor.getSnapshot())).toMatchObject({ onCue: true });
  });

  it("'none' mode: neither the cue nor a colour, no notice, every frame tagged -1", async () => {
    const r = await running(() => waiting(), 'none');
    r.h.actor.send({ type: 'liveness.stop' });
    expect(selectSelfieView(r.h.actor.getSnapshot())).toMatchObject({
      onCue: false,
      lightNotice: false,
    });
    r.h.actor.send({ type: 'liveness.start' });
    await vi.advanceTimersByTimeAsync(6_000);
    expect(r.shown).toEqual([]);
    expect(tags(r.calls).length).toBeGreaterThan(30);
    expect(tags(r.calls).every((f) => f.light === -1)).toBe(true);
  });

  it('looks for a bright background in each run with light only, and stops looking with the run', async () => {
    const r = await running(() => waiting());
    expect(r.backlight.started).toEqual([camera]);
    expect(r.backlight.running).toBe(1);
    r.h.actor.send({ type: 'liveness.stop' });
    expect(r.backlight.running).toBe(0);
    r.h.actor.send({ type: 'liveness.start' });
    expect(r.backlight.started).toHaveLength(2);
    for (const mode of ['cues', 'none'] as const) {
      const without = await running(() => waiting(), mode);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(without.backlight.started).toEqual([]);
    }
  });

  it('says before the start that the screen will change colour, with light only', async () => {
    for (const [mode, notice] of [
      ['cues,light', true],
      ['cues', false],
    ] as const) {
      const r = await running(() => waiting(), mode);
      r.h.actor.send({ type: 'liveness.stop' });
      expect(selectSelfieView(r.h.actor.getSnapshot())).toMatchObject({
        phase: 'idle',
        onCue: true,
        lightNotice: notice,
      });
      r.h.actor.send({ type: 'liveness.start' });
      expect(selectSelfieView(r.h.actor.getSnapshot()).lightNotice).toBe(false);
    }
  });

  it("the challenge's refusals: the server's sentence, 'Intentar nuevamente', and a person after two", async () => {
    const r = await running(() => waiting());
    const refuse = (reason: string, message: string) =>
      r.h.actor.send({
        type: 'poll.error',
        error: { code: 'rejected', status: 422, serverMessage: message, reason },
      });
    refuse('cues_missed', 'No parpadeaste cuando te lo pedimos.');
    expect(r.h.value()).toEqual({ selfie: 'failed' });
    const view = selectSelfieView(r.h.actor.getSnapshot());
    expect(view).toMatchObject({ button: 'retry', buttonEnabled: true });
    expect(view.error).toMatchObject({
      code: 'challengeFailed',
      serverMessage: 'No parpadeaste cuando te lo pedimos.',
    });
    expect(selectAssistOffer(r.h.actor.getSnapshot())).toBe('ask');
    // 'Intentar nuevamente': a new session; refused again, by the colours this time.
    r.h.actor.send({ type: 'liveness.start' });
    await r.h.answerSession();
    r.h.camera.last().send({ type: 'camera.ready', stream: camera });
    r.h.actor.send({ type: 'liveness.start' });
    refuse('light_mismatch', 'No vimos los colores de la pantalla en tu cara.');
    expect(selectSelfieView(r.h.actor.getSnapshot()).error).toMatchObject({
      code: 'challengeFailed',
    });
    expect(selectAssistOffer(r.h.actor.getSnapshot())).toBe('direct');
  });

  it("the light that cannot be judged where the patient is ('light_unjudged'): a person offered at once (issue 41)", async () => {
    const r = await running(() => waiting());
    r.h.actor.send({
      type: 'poll.error',
      error: {
        code: 'rejected',
        status: 422,
        serverMessage: 'Hay demasiada luz.',
        reason: 'light_unjudged',
      },
    });
    expect(r.h.value()).toEqual({ selfie: 'failed' });
    expect(selectSelfieView(r.h.actor.getSnapshot()).error).toMatchObject({
      code: 'challengeFailed',
      serverMessage: 'Hay demasiada luz.',
      reason: 'light_unjudged',
    });
    // Not after a second refusal: the first already offers the two choices.
    expect(selectAssistOffer(r.h.actor.getSnapshot())).toBe('direct');
  });

  it("maps the challenge's refusal codes of an error answer, whatever the status", () => {
    for (const [status, reason] of [
      [422, 'cues_missed'],
      [403, 'light_mismatch'],
      [422, 'face_changed'],
      [422, 'light_unjudged'],
    ] as const) {
      const error = toFlowError(new ApiError('rejected', status, 'La frase.', undefined, reason));
      // The contract knows both codes: the reason is kept (the same refusal twice offers a person).
      expect(livenessErrorFrom(error)).toEqual({
        code: 'challengeFailed',
        serverMessage: 'La frase.',
        reason,
      });
    }
    // Another code stays the spec's generic selfie problem.
    expect(
      livenessErrorFrom(toFlowError(new ApiError('rejected', 422, 'x', undefined, 'other'))),
    ).toEqual({ code: 'livenessFailed' });
  });
});

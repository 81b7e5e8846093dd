/**
 * Multi-frame liveness (issue 7): a request carries the frames captured since the last one, as the
 * browser's frame policy chooses them; the engine analyses them in order within the session's state.
 * Engine calls and the HTTP route (app.inject), on a real engine and an in-memory database.
 */
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  identityParts,
  identityPaths,
  LIVENESS_MAX_FRAMES,
  livenessResponse,
  startKycResponse,
} from '../../contract/identity';
import {
  ANSWER_LEAST,
  bufferFrame,
  CUE_ANSWER_MS,
  FRAMING_PROBE_FRAMES,
  inCueAnswer,
  selfieFramePolicy,
} from '../../contract/frame-policy';
import { CANDIDATE_LIMIT } from '../../server/identity/duplicates';
import { hints } from '../../server/identity/hints';
import { decodeRgb, fingerprint, FINGERPRINT_H, FINGERPRINT_W } from '../../server/identity/image';
import { bands } from '../../server/identity/store';
import { identityApp, startEngine, type Harness } from './engine';
import { multipart, ovalFrame, type Part } from './frames';

let h: Harness;
let app: FastifyInstance;
const T = 240_000;

beforeAll(async () => {
  h = await startEngine();
  app = await identityApp(h);
});
afterAll(async () => {
  await app?.close();
  await h?.engine.close();
  await h?.db.close();
});

const policy = selfieFramePolicy;
/** A capture as the policy takes it: the oval's region at maxWidth, JPEG at its quality. */
const shot = (seed: number, closed = 0) =>
  ovalFrame({ seed, closed, width: policy.maxWidth, quality: Math.round(policy.quality * 100) });
/** Requests of frames: 'o' open, 'c' closed, one string per request. */
const requests = (plan: string[], seed: number) =>
  Promise.all(
    plan.map((r, i) =>
      Promise.all([...r].map((k, j) => shot(seed * 1000 + i * 10 + j, k === 'c' ? 1 : 0))),
    ),
  );
const newSession = async () => (await h.engine.startSession(h.db)).sessionId;
async function send(sid: string, reqs: Buffer[][]) {
  const answers = [];
  for (const frames of reqs) {
    h.clock.now += policy.pollEveryMs;
    answers.push(await h.engine.livenessFrames(h.db, sid, frames));
  }
  return answers;
}
/**
 * Three blinks whose closed phases fall inside a request, and across two requests (the closed frame
 * ends one request, the reopening starts the next).
 */
const GENUINE = ['oooooo', 'oocooo', 'ooooo', 'oooooc', 'oooooo', 'occooo'];

describe('several frames per request (engine)', () => {
  let genuine: Buffer[][];
  beforeAll(async () => {
    genuine = await requests(GENUINE, 1);
  });

  it(
    'a genuine patient passes: blinks within a request and across requests',
    { timeout: T },
    async () => {
      const sid = await newSession();
      const answers = await send(sid, genuine);
      // Live at the last request (the third reopening), not before.
      expect(answers.map((a) => a.liveness_detected).indexOf(true)).toBe(GENUINE.length - 1);
      expect(answers[1]!.feedback).toEqual([hints.blink(1, 3)]);
      // The second blink closes at the end of request 4 and reopens at the start of request 5.
      expect(answers[3]!.feedback).toEqual([hints.blink(1, 3)]);
      expect(answers[4]!.feedback).toEqual([hints.blink(2, 3)]);
      expect(answers[5]!.feedback).toEqual([hints.done]);
      const { rows } = await h.db.query<{ status: string; n: number }>(
        'SELECT status, array_length(selfie_embedding, 1) AS n FROM kyc_sessions WHERE id = $1',
        [sid],
      );
      expect(rows[0]).toEqual({ status: 'live', n: 1024 });
    },
  );

  it(
    'a still photo never passes, however many fresh captures per request',
    { timeout: T },
    async () => {
      const sid = await newSession();
      const answers = await send(sid, await requests(['oooooooo', 'oooooooo', 'oooooooo'], 2));
      expect(answers.some((a) => a.liveness_detected)).toBe(false);
      expect(answers.at(-1)!.feedback).toEqual([hints.blink(0, 3)]);
    },
  );

  it('replaying a genuine session into a new one never passes', { timeout: T }, async () => {
    const sid = await newSession();
    const answers = await send(sid, genuine);
    expect(answers.some((a) => a.liveness_detected)).toBe(false);
    expect(answers.some((a) => a.feedback.includes(hints.duplicate))).toBe(true);
  });

  it('re-encoded replays are duplicates too', { timeout: T }, async () => {
    const sid = await newSession();
    const recoded = await Promise.all(
      genuine.map((r) =>
        Promise.all(r.map((f) => sharp(f).resize(150).jpeg({ quality: 80 }).toBuffer())),
      ),
    );
    const answers = await send(sid, recoded);
    expect(answers.some((a) => a.liveness_detected)).toBe(false);
  });

  it(
    'a replay never passes, even with more than 200 band-matching frames of other sessions stored before its source',
    { timeout: T },
    async () => {
      const source = await requests(GENUINE, 11);
      // The dHash the engine will compute for each frame (the worker's own decode and fingerprint).
      const limits = { maxUploadBytes: 1 << 20, maxPixels: 1 << 24, minImageSide: 1 };
      const hashes = new Set<bigint>();
      for (const f of source.flat()) hashes.add(fingerprint(await decodeRgb(f, limits, 640)).dhash);
      // Other patients' captures stored first: for every frame, CANDIDATE_LIMIT + 10 frames sharing
      // three of its four dHash bands (3 bits away), each with another thumbnail.
      const other = Buffer.from(
        Array.from({ length: FINGERPRINT_W * FINGERPRINT_H }, (_, i) => (i * 37) % 256),
      );
      for (const hash of hashes) {
        const near = hash ^ 0b1110n;
        const b = bands(near);
        await h.db.query(
          `INSERT INTO liveness_frames (session_id, seq, thumb, dhash, b0, b1, b2, b3, counted)
           SELECT $1, g, $2, $3::bigint, $4, $5, $6, $7, true FROM generate_series(1, $8::int) g`,
          [
            await newSession(),
            other,
            BigInt.asIntN(64, near).toString(),
            ...b,
            CANDIDATE_LIMIT + 10,
          ],
        );
      }
      const genuine = await send(await newSession(), source);
      expect(genuine.at(-1)!.liveness_detected).toBe(true);
      const replayed = await send(await newSession(), source);
      expect(replayed.some((a) => a.liveness_detected)).toBe(false);
      expect(replayed.every((a) => a.feedback.includes(hints.duplicate))).toBe(true);
    },
  );

  it(
    'one blink repeated within a request counts once (the copies are duplicates)',
    { timeout: T },
    async () => {
      const sid = await newSession();
      const [warm, blink] = await requests(['oooo', 'ocoo'], 3);
      const [o, c, o2] = [blink![0]!, blink![1]!, blink![2]!];
      // open, closed, open, then the same closed and open frames twice more.
      const answers = await send(sid, [warm!, [o, c, o2, c, o2, c, o2]]);
      expect(answers[1]!.liveness_detected).toBe(false);
      expect(answers[1]!.feedback).toEqual([hints.blink(1, 3), hints.duplicate]);
      // Sent again in a later request: still nothing new.
      const again = await send(sid, [[c, o2]]);
      expect(again[0]!.feedback).toEqual([hints.duplicate]);
      expect(again[0]!.liveness_detected).toBe(false);
    },
  );

  it(
    'refuses too many frames and a frame over the size limit, before any analysis',
    { timeout: T },
    async () => {
      const sid = await newSession();
      const f = await shot(40);
      await expect(
        h.engine.livenessFrames(
          h.db,
          sid,
          Array.from({ length: LIVENESS_MAX_FRAMES + 1 }, () => f),
        ),
      ).rejects.toMatchObject({ status: 413, message: expect.stringContaining('como máximo 8') });
      const big = Buffer.concat([f, Buffer.alloc(h.config.liveness.maxFrameBytes)]);
      await expect(h.engine.livenessFrames(h.db, sid, [f, big])).rejects.toMatchObject({
        status: 413,
        message: expect.stringContaining('KB'),
      });
      await expect(h.engine.livenessFrames(h.db, sid, [])).rejects.toMatchObject({ status: 400 });
      // Nothing was recorded for the refused requests.
      const { rows } = await h.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM liveness_frames WHERE session_id = $1',
        [sid],
      );
      expect(rows[0]!.n).toBe(0);
    },
  );
});

describe('POST /liveness with repeated frame parts', () => {
  const startKyc = async () =>
    startKycResponse.parse(
      (await app.inject({ method: 'POST', url: identityPaths.startKyc })).json(),
    ).session_id;
  const post = (sid: string, frames: Buffer[], extra: Part[] = []) =>
    app.inject({
      method: 'POST',
      url: identityPaths.liveness,
      ...multipart([
        { name: 'session_id', value: sid },
        ...frames.map((value, i) => ({ name: identityParts.frame, value, filename: `f${i}.jpg` })),
        ...extra,
      ]),
    });

  it('a genuine patient passes through HTTP', { timeout: T }, async () => {
    const sid = await startKyc();
    const reqs = await requests(GENUINE, 5);
    const bodies = [];
    for (const frames of reqs) {
      h.clock.now += policy.pollEveryMs;
      const res = await post(sid, frames);
      expect(res.statusCode).toBe(200);
      bodies.push(livenessResponse.parse(res.json()));
    }
    expect(bodies.at(-1)).toEqual({
      feedback: [hints.done],
      liveness_detected: true,
      time_up: false,
    });
    expect(bodies.slice(0, -1).every((b) => !b.liveness_detected)).toBe(true);
  });

  it(
    'too many parts, a part too large, an unknown part: Spanish 4xx, nothing analysed',
    { timeout: T },
    async () => {
      const sid = await startKyc();
      const f = await shot(60);
      const many = await post(
        sid,
        Array.from({ length: LIVENESS_MAX_FRAMES + 1 }, () => f),
      );
      expect(many.statusCode).toBe(413);
      expect(many.json()).toEqual({
        success: false,
        message: 'Demasiadas imágenes en un solo envío. Enviá como máximo 8.',
      });
      // Random pixels do not compress: well over the frame limit.
      const noise = await sharp(
        Buffer.from(Array.from({ length: 700 * 700 * 3 }, () => Math.floor(Math.random() * 256))),
        {
          raw: { width: 700, height: 700, channels: 3 },
        },
      )
        .jpeg({ quality: 100 })
        .toBuffer();
      expect(noise.length).toBeGreaterThan(h.config.liveness.maxFrameBytes);
      const large = await post(sid, [f, noise]);
      expect(large.statusCode).toBe(413);
      expect(large.json()).toEqual({
        success: false,
        message: 'Una imagen es demasiado grande. Enviá fotos de menos de 256 KB.',
      });
      const other = await post(sid, [f], [{ name: 'image_front', value: f, filename: 'x.jpg' }]);
      expect(other.statusCode).toBe(400);
      expect(other.json().success).toBe(false);
      const gif = await sharp({
        create: { width: 64, height: 64, channels: 3, background: '#888' },
      })
        .gif()
        .toBuffer();
      const wrong = await post(sid, [f, gif]);
      expect(wrong.statusCode).toBe(415);
      const { rows } = await h.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM liveness_frames WHERE session_id = $1',
        [sid],
      );
      expect(rows[0]!.n).toBe(0);
    },
  );
});

describe('the frame policy', () => {
  const buf = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ capturedAt: i * 125, data: i }));
  it('sends every frame captured since the last request while within the bound', () => {
    expect(policy.select(buf(6)).map((f) => f.data)).toEqual([0, 1, 2, 3, 4, 5]);
  });
  it('while the last answer names a framing to fix, only the newest frames go; with a frame of a cue or a colour, as when framed', () => {
    const sent = policy.select(buf(10), false).map((f) => f.data);
    expect(sent).toEqual(
      Array.from({ length: FRAMING_PROBE_FRAMES }, (_, i) => 10 - FRAMING_PROBE_FRAMES + i),
    );
    expect(policy.select(buf(10), true)).toHaveLength(policy.maxFramesPerRequest);
    // A cued frame, or a lit one, among them: the request is chosen as when framed (a round judged
    // on fewer frames is a noisier correlation).
    for (const marked of [{ cued: true }, { lit: true, colour: 0 }]) {
      const some = buf(10).map((f) => (f.data === 3 ? { ...f, ...marked } : f));
      expect(policy.select(some, false)).toEqual(policy.select(some, true));
      expect(policy.select(some, false).map((f) => f.data)).toContain(3);
    }
  });
  it('thins a backlog evenly to the bound, keeping the oldest and the newest', () => {
    const sent = policy.select(buf(15)).map((f) => f.data);
    expect(sent).toHaveLength(policy.maxFramesPerRequest);
    expect(sent[0]).toBe(0);
    expect(sent.at(-1)).toBe(14);
    expect(new Set(sent).size).toBe(sent.length);
  });
  it('sends the frames captured while a cue showed before any other (issue 31)', () => {
    const cued = (n: number, from: number, to: number) =>
      buf(n).map((f) => ({ ...f, cued: f.data >= from && f.data < to }));
    // 15 frames, 6 of them in the cue's window: all 6 go, and 2 of the others evenly spaced.
    const sent = policy.select(cued(15, 5, 11)).map((f) => f.data);
    expect(sent).toEqual([0, 5, 6, 7, 8, 9, 10, 14]);
    // More cued frames than room: evenly spaced among them, none of the others.
    const many = policy.select(cued(16, 2, 14)).map((f) => f.data);
    expect(many).toHaveLength(policy.maxFramesPerRequest);
    expect(many.every((d) => d >= 2 && d < 14)).toBe(true);
  });
  it("sends every frame where a blink answering the shown cue closes before the cue's others (issue 41: a short blink's one closed frame was thinned away)", () => {
    // A cue shown at frame 2 (250 ms) whose window covers frames 2-12: 11 cued frames, room for 8.
    const shownAt = 250;
    const frames = buf(13).map((f) => ({
      ...f,
      cued: f.data >= 2,
      answer: f.data >= 2 && inCueAnswer(shownAt, f.capturedAt),
    }));
    const answering = frames.filter((f) => f.answer).map((f) => f.data);
    expect(answering).toEqual([4, 5, 6, 7, 8, 9, 10]);
    const sent = policy.select(frames).map((f) => f.data);
    expect(sent).toHaveLength(policy.maxFramesPerRequest);
    for (const d of answering) expect(sent).toContain(d);
    // Evenly among all cued frames, one of them (frame 6 or 7, where a blink closes most often) went.
    const even = policy.select(frames.map((f) => ({ ...f, answer: false }))).map((f) => f.data);
    expect(answering.every((d) => even.includes(d))).toBe(false);
    // The window follows the moment the cue showed, not the one it was asked for.
    expect(inCueAnswer(null, 1000)).toBe(false);
    expect(inCueAnswer(1000, 1000 + CUE_ANSWER_MS[0] - 1)).toBe(false);
    expect(inCueAnswer(1000, 1000 + CUE_ANSWER_MS[1])).toBe(true);
  });
  it('drops the oldest uncued frame when the buffer is full, never a cued one while others remain', () => {
    let buffer: ReturnType<typeof bufferFrame<number>> = [];
    for (let i = 0; i < policy.maxBuffered + 3; i++)
      buffer = bufferFrame(policy, buffer, { capturedAt: i * 125, data: i, cued: i < 2 });
    expect(buffer).toHaveLength(policy.maxBuffered);
    expect(buffer.map((f) => f.data).slice(0, 3)).toEqual([0, 1, 5]);
    expect(buffer.at(-1)!.data).toBe(policy.maxBuffered + 2);
  });
  it('sends the frames under a judged colour after the cued ones and before the others, and drops them after the others', () => {
    // 15 frames: 3 cued (4-6), 6 lit (7-12), 6 neither: the 3 cued, then 5 of the 6 lit.
    const ranked = buf(15).map((f) => ({
      ...f,
      cued: f.data >= 4 && f.data < 7,
      lit: f.data >= 7 && f.data < 13,
    }));
    const sent = policy.select(ranked).map((f) => f.data);
    expect(sent).toHaveLength(policy.maxFramesPerRequest);
    expect(sent.slice(0, 3)).toEqual([4, 5, 6]);
    expect(sent.slice(3).every((d) => d >= 7 && d < 13)).toBe(true);
    // Room left after the cued and lit ones goes to the others.
    const few = policy.select(ranked.map((f) => ({ ...f, lit: f.data === 8 }))).map((f) => f.data);
    expect(few).toContain(8);
    expect(few.filter((d) => d < 4 || d >= 7).length).toBe(policy.maxFramesPerRequest - 3);
    // A full buffer drops the oldest frame that is neither, then the oldest lit one.
    let buffer: ReturnType<typeof bufferFrame<number>> = [];
    for (let i = 0; i < policy.maxBuffered + 2; i++)
      buffer = bufferFrame(policy, buffer, {
        capturedAt: i * 125,
        data: i,
        cued: i === 1,
        lit: i !== 1,
      });
    expect(buffer.map((f) => f.data).slice(0, 2)).toEqual([1, 3]);
    buffer = bufferFrame(policy, buffer, { capturedAt: 0, data: 99 });
    expect(buffer.map((f) => f.data)).not.toContain(99);
  });
  it("sends a frame of each colour painted right after the cue's answer, and keeps a colour's last frame in a full buffer (issue 41: a round with two colours unsent is not judged)", () => {
    // 15 frames: 0-5 lit by colours 3 (0-2) and 4 (3-5), 6-14 cued: one of each colour, 6 cued.
    const frames = buf(15).map((f) => ({
      ...f,
      cued: f.data >= 6,
      lit: f.data < 6,
      ...(f.data < 6 ? { colour: f.data < 3 ? 3 : 4 } : {}),
    }));
    const sent = policy.select(frames).map((f) => f.data);
    expect(sent).toHaveLength(policy.maxFramesPerRequest);
    expect(sent.filter((d) => d < 3)).toEqual([1]);
    expect(sent.filter((d) => d >= 3 && d < 6)).toEqual([4]);
    // Without the colours, the cued frames took every place.
    const plain = policy.select(frames.map(({ colour: _, ...f }) => f)).map((f) => f.data);
    expect(plain.every((d) => d >= 6)).toBe(true);
    // A full buffer of lit frames drops the oldest whose colour has another frame.
    let buffer: ReturnType<typeof bufferFrame<number>> = [];
    for (let i = 0; i <= policy.maxBuffered; i++)
      buffer = bufferFrame(policy, buffer, {
        capturedAt: i * 125,
        data: i,
        lit: true,
        colour: i === 0 ? 0 : 1,
      });
    expect(buffer.map((f) => f.data).slice(0, 2)).toEqual([0, 2]);
  });
  it("gives the cue answer's latest frames, down to ANSWER_LEAST, to the colours it does not show (issue 41: a round left unjudged)", () => {
    // 13 frames: 0-5 lit by colours 0 (0-2) and 1 (3-5), 6-12 the cue's answer under colour 2.
    const frames = buf(13).map((f) => ({
      ...f,
      lit: true,
      colour: f.data < 3 ? 0 : f.data < 6 ? 1 : 2,
      answer: f.data >= 6,
    }));
    const sent = policy.select(frames).map((f) => f.data);
    // A frame of each colour the answer does not show; the answer gives up its last frame only.
    expect(sent).toEqual([1, 4, 6, 7, 8, 9, 10, 11]);
    // Three colours it does not show: the answer keeps ANSWER_LEAST, its earliest.
    expect(ANSWER_LEAST).toBe(5);
    const three = policy
      .select(
        buf(14).map((f) => ({
          ...f,
          lit: true,
          colour: Math.min(3, Math.floor(f.data / 2)),
          answer: f.data >= 6,
        })),
      )
      .map((f) => f.data);
    expect(three).toEqual([0, 2, 4, 6, 7, 8, 9, 10]);
    // An answer under every colour of the buffer keeps all its frames (as before).
    const covered = policy
      .select(frames.map((f) => ({ ...f, colour: f.data < 6 ? 2 : f.colour })))
      .map((f) => f.data);
    expect(covered.filter((d) => d >= 6)).toEqual([6, 7, 8, 9, 10, 11, 12]);
  });
  it('stays within the server bounds', () => {
    expect(policy.maxFramesPerRequest).toBeLessThanOrEqual(LIVENESS_MAX_FRAMES);
    expect(Math.ceil(policy.pollEveryMs / policy.captureEveryMs)).toBeLessThanOrEqual(
      policy.maxFramesPerRequest,
    );
  });
});

import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Worker } from 'node:worker_threads';
import { hints } from '../../server/identity/hints';
import { spawnFaceWorker } from '../../server/identity/pool';
import { blinkSequence, cameraFrame, fixture } from './frames';
import { sendFrames, startEngine, type Harness } from './engine';

let h: Harness;
/** The face workers the engine started, in order (its pool replaces one that exits). */
const workers: Worker[] = [];
beforeAll(async () => {
  h = await startEngine(
    {},
    { spawnFaceWorker: (data) => workers[workers.push(spawnFaceWorker(data)) - 1]! },
  );
});
afterAll(async () => {
  await h?.engine.close();
  await h?.db.close();
});

const T = 180_000;
const newSession = async () => (await h.engine.startSession(h.db)).sessionId;
const open = (seed: number, o = {}) => cameraFrame('blink-open.jpg', { seed, ...o });

describe('blink liveness on real frames', () => {
  let genuine: Buffer[];
  beforeAll(async () => {
    genuine = await blinkSequence(3, 1);
  });

  it('is live only after the third blink of the same face', { timeout: T }, async () => {
    const sid = await newSession();
    const answers = await sendFrames(h, sid, genuine);
    const live = answers.map((a) => a.liveness_detected);
    // open x3, then (closed, open, open) x3: the third reopening (frame 11) completes the challenge.
    expect(live.indexOf(true)).toBe(10);
    expect(live.slice(10).every(Boolean)).toBe(true);
    expect(answers.some((a) => a.feedback.some((f) => f.includes('duplicado')))).toBe(false);
    expect(answers[5]!.feedback).toEqual([hints.blink(1, 3)]);
    expect(answers[10]!.feedback).toEqual([hints.done]);
    // The session kept a selfie embedding (the best open-eye frame), not a photo.
    const { rows } = await h.db.query<{ status: string; n: number; photo: unknown }>(
      'SELECT status, array_length(selfie_embedding, 1) AS n, selfie_photo AS photo FROM kyc_sessions WHERE id = $1',
      [sid],
    );
    expect(rows[0]).toMatchObject({ status: 'live', n: 1024, photo: null });
  });

  it('two blinks are not enough', { timeout: T }, async () => {
    const sid = await newSession();
    const answers = await sendFrames(h, sid, await blinkSequence(2, 2));
    expect(answers.some((a) => a.liveness_detected)).toBe(false);
    expect(answers.at(-1)!.feedback).toEqual([hints.blink(2, 3)]);
  });

  it(
    'replaying a genuine sequence into a new session never passes: every frame is a duplicate',
    { timeout: T },
    async () => {
      const sid = await newSession();
      const answers = await sendFrames(h, sid, genuine);
      expect(answers.some((a) => a.liveness_detected)).toBe(false);
      // Counted frames of the first session are recognised; the rest are uncounted open frames at most.
      const dups = answers.filter((a) =>
        a.feedback.some((f) => f.includes('frame duplicado')),
      ).length;
      expect(dups).toBeGreaterThanOrEqual(7);
    },
  );

  it(
    'a re-encoded replay (other JPEG quality, slight resize) is still a duplicate',
    { timeout: T },
    async () => {
      const sid = await newSession();
      const recoded = await Promise.all(
        genuine.map((f) => sharp(f).resize(600).jpeg({ quality: 90 }).toBuffer()),
      );
      const answers = await sendFrames(h, sid, recoded);
      expect(answers.some((a) => a.liveness_detected)).toBe(false);
    },
  );

  it(
    'the same frame sent again within a session is "frame duplicado" and does not count',
    { timeout: T },
    async () => {
      const sid = await newSession();
      const seq = await blinkSequence(3, 3);
      // open, open, open, closed, then the closed/open frames of the first blink over and over.
      const frames = [...seq.slice(0, 5), seq[3]!, seq[4]!, seq[3]!, seq[4]!, seq[3]!, seq[4]!];
      const answers = await sendFrames(h, sid, frames);
      expect(
        answers.slice(5).every((a) => a.feedback.some((f) => f.includes('frame duplicado'))),
      ).toBe(true);
      expect(answers.some((a) => a.liveness_detected)).toBe(false);
    },
  );

  it(
    'a still photo (no blink) never passes, however many fresh captures',
    { timeout: T },
    async () => {
      const sid = await newSession();
      const frames = await Promise.all(Array.from({ length: 10 }, (_, i) => open(500 + i)));
      const answers = await sendFrames(h, sid, frames);
      expect(answers.some((a) => a.liveness_detected)).toBe(false);
      expect(answers.at(-1)!.feedback).toEqual([hints.blink(0, 3)]);
    },
  );

  it(
    'a different face once a blink was seen refuses the session (issue 41: no second round)',
    { timeout: T },
    async () => {
      const sid = await newSession();
      const seq = await blinkSequence(1, 4);
      // Someone else, a step to the side (still inside the oval): the move triggers a description.
      const stranger = (left: number) =>
        sharp(fixture('faces', 'person-05.jpg'))
          .resize(400, 400)
          .extend({ top: 40, bottom: 40, left, right: 240 - left, background: '#777' })
          .jpeg()
          .toBuffer();
      const answers = await sendFrames(h, sid, seq);
      expect(answers[5]!.feedback).toEqual([hints.blink(1, 3)]);
      // The stranger's open eyes read as closing against the patient's: one such description proves
      // no other face alone (UNCONFIRMED_OTHER_FACE) and counts for nothing; the blink seen stands.
      const [doubt] = await sendFrames(h, sid, [await stranger(40)]);
      expect(doubt!.feedback).toEqual([hints.blink(1, 3)]);
      // Its next description (it moved again) is the second in a row: another face. It used to
      // start again for the stranger (hints.otherFace), the blink seen refunded.
      await expect(sendFrames(h, sid, [await stranger(120)])).rejects.toMatchObject({
        code: 'face_changed',
        status: 422,
      });
      await expect(sendFrames(h, sid, [(await blinkSequence(1, 5))[0]!])).rejects.toMatchObject({
        code: 'face_changed',
      });
    },
  );

  it('answers "time up" after the session time limit', { timeout: T }, async () => {
    const sid = await newSession();
    await sendFrames(h, sid, [await open(900)]);
    h.clock.now += h.config.liveness.timeLimitMs;
    const [late] = await sendFrames(h, sid, [await open(901)]);
    expect(late!.feedback).toEqual([hints.timeUp]);
    expect(late!.liveness_detected).toBe(false);
    expect(late!.time_up).toBe(true);
    // Once the time is over no frame can change the answer: later ones cost no model time.
    const submitted = h.engine.stats().pool.submitted;
    const [after] = await sendFrames(h, sid, [await open(903)]);
    expect(after).toEqual({ feedback: [hints.timeUp], liveness_detected: false, time_up: true });
    expect(h.engine.stats().pool.submitted).toBe(submitted);
  });

  it('counts the time limit from the first frame, not from the start', { timeout: T }, async () => {
    const sid = await newSession();
    // Reading the instructions and allowing the camera took longer than the whole limit.
    h.clock.now += 2 * h.config.liveness.timeLimitMs;
    const [first] = await sendFrames(h, sid, [await open(902)]);
    expect(first!.time_up).toBe(false);
    expect(first!.feedback).not.toContain(hints.timeUp);
  });
});

describe('gates and hints on real images', () => {
  const hintFor = async (frame: Buffer) =>
    (await sendFrames(h, await newSession(), [frame]))[0]!.feedback;

  it('several faces', { timeout: T }, async () => {
    expect(await hintFor(fixture('faces', 'group.jpg'))).toContain(hints.severalFaces);
  });
  it('no face', { timeout: T }, async () => {
    const wall = await sharp({
      create: { width: 640, height: 480, channels: 3, background: '#a89f91' },
    })
      .jpeg()
      .toBuffer();
    expect(await hintFor(wall)).toEqual([hints.noFace]);
  });
  it('too dark', { timeout: T }, async () => {
    expect(await hintFor(await open(10, { brightness: 0.12, noise: 2 }))).toContain(hints.tooDark);
  });
  it('too far', { timeout: T }, async () => {
    const small = await sharp(fixture('faces', 'blink-open.jpg'))
      .resize(120, 90)
      .extend({ top: 195, bottom: 195, left: 260, right: 260, background: '#b0a090' })
      .jpeg()
      .toBuffer();
    expect(await hintFor(small)).toContain(hints.tooFar);
  });
  it('not centred', { timeout: T }, async () => {
    const side = await sharp(fixture('faces', 'blink-open.jpg'))
      .resize(320, 240)
      .extend({ top: 120, bottom: 120, left: 560, right: 0, background: '#b0a090' })
      .jpeg()
      .toBuffer();
    expect(await hintFor(side)).toContain(hints.notCentred);
  });
  it('hold still', { timeout: T }, async () => {
    const sid = await newSession();
    const moved = await sharp(fixture('faces', 'blink-open.jpg'))
      .extend({ left: 120, background: '#b0a090' })
      .extract({ left: 0, top: 0, width: 640, height: 480 })
      .jpeg()
      .toBuffer();
    const answers = await sendFrames(h, sid, [await open(20), moved]);
    expect(answers[1]!.feedback).toEqual([hints.holdStill]);
  });
});

describe('sessions and uploads', () => {
  it('unknown and expired sessions', { timeout: T }, async () => {
    const frame = await open(30);
    await expect(
      h.engine.livenessFrame(h.db, '00000000-0000-4000-8000-000000000000', frame),
    ).rejects.toThrow(/invalid session/);
    await expect(h.engine.livenessFrame(h.db, 'not-a-uuid', frame)).rejects.toThrow(
      /invalid session/,
    );
    const sid = await newSession();
    await h.db.query(
      "UPDATE kyc_sessions SET expires_at = now() - interval '1 second' WHERE id = $1",
      [sid],
    );
    await expect(h.engine.livenessFrame(h.db, sid, frame)).rejects.toThrow(/session expired/);
  });

  it('refuses wrong type (415), too large (413), undecodable (400)', { timeout: T }, async () => {
    const sid = await newSession();
    const jpeg = await open(31);
    await expect(
      h.engine.livenessFrame(h.db, sid, Buffer.from('GIF89a........')),
    ).rejects.toMatchObject({ status: 415 });
    const huge = Buffer.concat([jpeg, Buffer.alloc(h.config.maxUploadBytes)]);
    await expect(h.engine.livenessFrame(h.db, sid, huge)).rejects.toMatchObject({ status: 413 });
    await expect(h.engine.livenessFrame(h.db, sid, jpeg.subarray(0, 200))).rejects.toMatchObject({
      status: 400,
    });
    // A decompression bomb: tiny PNG, enormous pixel count.
    const bomb = await sharp({
      create: { width: 9000, height: 9000, channels: 3, background: '#000' },
    })
      .png({ compressionLevel: 9 })
      .toBuffer();
    await expect(h.engine.livenessFrame(h.db, sid, bomb)).rejects.toMatchObject({ status: 413 });
    // The worker survived all of it.
    expect((await h.engine.analyze(jpeg, { embedding: false })).faces).toHaveLength(1);
  });

  it('a crashed worker is replaced and work goes on', { timeout: T }, async () => {
    const before = h.engine.stats().pool.replaced;
    const started = workers.length;
    // The worker's thread ends under the pool, as a native crash or an out-of-memory kill would.
    await workers.at(-1)!.terminate();
    const r = await h.engine.analyze(await open(32), { embedding: false });
    expect(r.faces).toHaveLength(1);
    expect(h.engine.stats().pool.replaced).toBe(before + 1);
    expect(workers).toHaveLength(started + 1);
  });

  it('honours EXIF orientation', { timeout: T }, async () => {
    // Stored rotated 90 degrees with an EXIF tag saying so: upright after decoding.
    const rotated = await sharp(await open(33))
      .rotate(-90)
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const r = await h.engine.analyze(rotated, { embedding: false });
    expect(r.width).toBe(640);
    expect(r.faces).toHaveLength(1);
  });
});

import { describe, expect, it } from 'vitest';
import {
  BACK_OFF,
  BLINK_REFRACTORY_MS,
  blinkOnCue,
  distanceStart,
  FACE_ELLIPSES,
  followFraming,
  SETTLE_MS,
  HAIR_SHADE,
  HEAD_ELLIPSES,
  HINT_LATENCY_MS,
  litAtScale,
  makeSyntheticPatient,
  MOVE_MS,
  rng,
  scaleAt,
  screenLightWeight,
  screenShade,
  SHADE_FLOOR,
} from './model';

describe("the synthetic patient's blink on cue", () => {
  const p = { ...makeSyntheticPatient(3), missCue: 0 };
  const alone = blinkOnCue(p, 1000, rng(7))!;

  it('comes after the cue by the display latency and a reaction of at least 180 ms', () => {
    expect(alone[0]).toBeGreaterThanOrEqual(1000 + p.displayLatencyMs + 180);
    expect(alone[1] - alone[0]).toBeGreaterThanOrEqual(p.closedMs[0]);
  });

  it('never runs into a blink under way: it follows it after the refractory time', () => {
    // A spontaneous blink over the moment the answer would start, then another just after.
    const under = [alone[0] - 50, alone[0] + 100] as [number, number];
    const next = [under[1] + 300, under[1] + 400] as [number, number];
    const answer = blinkOnCue(p, 1000, rng(7), [under, next])!;
    expect(answer[1] - answer[0]).toBeCloseTo(alone[1] - alone[0], 6);
    // Not before `under` ends (it would be one long blink), nor into `next` (too little room before it).
    expect(answer[0]).toBe(next[1] + BLINK_REFRACTORY_MS);
    // Blinks well apart do not move it.
    expect(
      blinkOnCue(p, 1000, rng(7), [
        [0, 100],
        [alone[1] + 500, alone[1] + 600],
      ]),
    ).toEqual(alone);
  });
});

describe("the synthetic patient's distance (issue 41)", () => {
  const far = { ...makeSyntheticPatient(5), scale: 0.55 };

  it('holds the phone where it is until a hint, at the usual framing by default', () => {
    expect(scaleAt(distanceStart(makeSyntheticPatient(5)), 10_000)).toBe(1);
    expect(scaleAt(distanceStart(far), 10_000)).toBe(0.55);
  });

  it("follows 'Acercá el celular' to the usual framing after reading it, in one smooth move", () => {
    const m = followFraming(far, distanceStart(far), ['too_far'], 2000);
    expect(scaleAt(m, 2000 + HINT_LATENCY_MS)).toBe(0.55);
    const mid = scaleAt(m, 2000 + HINT_LATENCY_MS + MOVE_MS / 2);
    expect(mid).toBeGreaterThan(0.55);
    expect(mid).toBeLessThan(1);
    expect(scaleAt(m, 2000 + HINT_LATENCY_MS + MOVE_MS)).toBe(1);
    // Read again just after (the answers still say what the frames before the move showed): no
    // further. Still said once the phone settled: a step closer (a face small in its photo).
    const arrived = 2000 + HINT_LATENCY_MS + MOVE_MS;
    expect(followFraming(far, m, ['too_far'], arrived + SETTLE_MS - 1)).toBe(m);
    const closer = followFraming(far, m, ['too_far'], arrived + SETTLE_MS);
    expect(scaleAt(closer, 60_000)).toBeCloseTo(1 / BACK_OFF, 9);
    expect(followFraming(far, closer, [], 60_000)).toBe(closer);
  });

  it("'Alejá un poco el celular' takes it back a little; other hints move nothing", () => {
    const close = { ...far, scale: 1.3 };
    const m = followFraming(close, distanceStart(close), ['too_close', 'not_centred'], 0);
    expect(scaleAt(m, 10_000)).toBeCloseTo(1.3 * BACK_OFF, 9);
    // Read again during the move: nothing more; still said once settled: back a little more.
    expect(followFraming(close, m, ['too_close'], m.at + m.ms)).toBe(m);
    const again = followFraming(close, m, ['too_close'], m.at + m.ms + SETTLE_MS);
    expect(scaleAt(again, 60_000)).toBeCloseTo(1.3 * BACK_OFF * BACK_OFF, 9);
    const still = distanceStart(far);
    expect(followFraming(far, still, ['no_face'], 0)).toBe(still);
    expect(followFraming(far, still, ['stalled'], 0)).toBe(still);
  });
});

describe("the screen's light on the head (issue 41: the face's shape)", () => {
  const f = FACE_ELLIPSES.blink;
  const h = HEAD_ELLIPSES.blink;

  it('is full at the face centre, falls towards its outline to SHADE_FLOOR, and is HAIR_SHADE off the face', () => {
    expect(screenShade(0, 1)).toBe(1);
    expect(screenShade(0.8, 1)).toBeCloseTo(0.6, 6);
    expect(screenShade(0.99, 1)).toBe(SHADE_FLOOR);
    expect(screenShade(1.2, 0)).toBe(HAIR_SHADE);
    // The outer cheeks (where the server measures the rim) take less than the core (the nose).
    const rim = screenLightWeight('blink', f.cx - 0.8 * f.rx, f.cy);
    const core = screenLightWeight('blink', f.cx, f.cy + 0.1 * f.ry);
    expect(rim / core).toBeLessThan(0.78);
  });

  it('lights the hair beside the face as hair, and the background beyond the head not at all', () => {
    expect(screenLightWeight('blink', h.cx, h.cy - 0.9 * h.ry)).toBeCloseTo(HAIR_SHADE, 6);
    expect(screenLightWeight('blink', 5, 5)).toBe(0);
  });

  it('goes with the inverse square of the distance: scale^2 of the screen (closer, brighter)', () => {
    const p = makeSyntheticPatient(3, { screenBrightness: 0.5 });
    expect(litAtScale(p, 1.5).screenBrightness).toBeCloseTo(1.125, 9);
    expect(litAtScale(p, 0.5).screenBrightness).toBeCloseTo(0.125, 9);
    expect(litAtScale(p, 1)).toEqual(p);
  });
});

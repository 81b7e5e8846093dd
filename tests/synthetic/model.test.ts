import { describe, expect, it } from 'vitest';
import { BLINK_REFRACTORY_MS, blinkOnCue, makeSyntheticPatient, rng } from './model';

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

/**
 * The face's shape in the light (issue 41): the limits a round's `shape` (the rim's change over the
 * core's, liveness-light-judge.ts) is judged by. Constants only, with what each was measured on.
 */
/**
 * The face's change (the slope of its chromaticity deviations on the screen colours') below which
 * the shape says nothing: outdoors a face on a screen or a print changes by 0.01 at most in the
 * tuning (bench/_light-tuning.ts, whole face), and its rim over its core, a ratio of two slopes that
 * small, fell to 0.73 by noise (twice with the core at 0.012 or more); a real face filling the oval
 * outdoors changes by 0.030 at least. Outdoors at arm's length a face is judged on a background
 * part, or asked to come closer (`unjudgeable`).
 */
export const SHAPE_MIN_CHANGE = 0.02;

/**
 * The least fit (Pearson) of the core's change less the rim's to the screen's colours for a shape to
 * pass (`shapeFit`; as a background part's difference must follow them, BEYOND_FIT): near the noise
 * floor the rim can change less than the core by chance. A face on a screen passed 1 of 40 tries on
 * its shape alone (0.65 at a change of 0.030, 2026-11-30); in the next 40 its two rounds nearest
 * `thresholds.shape` read 0.72 and 0.79 at fits of 0.40 and 0.41, and every attack round with a shape
 * read fitted 0.61 at most (48 rounds of faces on a screen and prints). Real faces' rounds that a
 * shape passed fitted 0.42 once (in the sun, change 0.033), 0.54-0.70 five times, 0.79-0.99 the
 * other 38 of 44 (bench/liveness-challenge.ts `shape fit`, docs/measurements.md).
 */
export const SHAPE_FIT = 0.5;

/**
 * Under this change a shape passes a round only at a correlation of `thresholds.alone` or at a shape
 * of SHAPE_NEAR_FLOOR at most. Every attack round a shape passed (3 of 331 attack rounds with a shape
 * read, bench logs 2026-11-30: two prints and a face on a screen, all beside a window) changed by
 * 0.021-0.030 with shapes of 0.57-0.75 and correlations of 0.85-0.87, and a face on a screen passed
 * one session of 40 so; real faces' rounds there read shapes under 0.55 or correlations of 0.9 and
 * more but for 3 of the 70 that passed (of 929 rounds passed in all, in the sun and the shade).
 */
export const SHAPE_SURE_CHANGE = 0.031;
export const SHAPE_NEAR_FLOOR = 0.55;
/**
 * Under SHAPE_SURE_CHANGE a shape passes a round only at this fit or more (SHAPE_FIT is the least
 * above it). A face on a screen passed 1 of 40 tries so again (bench 2026-11-30, seed 3: change
 * 0.023, shape 0.52, fit 0.52, correlation 0.93); the real faces' rounds that a shape passed there
 * fitted 0.63 once and 0.65 or more the other 36 (five genuine runs of 96 patients that day).
 */
export const SHAPE_FIT_NEAR_FLOOR = 0.65;

/**
 * A shape this flat refuses the round whatever a background part says: a printed photo lit like
 * skin passed once on a part (`beyond` 0.63: the print's own background, of another colour, took
 * the light's change otherwise in chromaticity) in the real engine's bench. Measured on
 * log-chromaticity: real faces 0.89 at most (far, beside a window), prints and faces on a screen
 * 0.90 and more, most of them 0.94-1.1 (bench/_light-tuning.ts).
 */
export const SHAPE_FLAT = 0.95;

/**
 * A round whose face changed clearly (FLAT_FACE_CHANGE or more) with a shape this flat ends the
 * session as a mismatch: no second round (issue 41: an attacker gets none). Measured on the real
 * engine's bench logs (2026-11-29, eight runs, seven faces): 1 of 268 genuine rounds with a shape
 * read (1.04: a held-out face in the shade, a failing round anyway), 45 of 58 attack rounds; and
 * three of the prints that passed did so in a second round after a first at 0.91-1.03.
 */
export const FLAT_FACE = 0.9;
export const FLAT_FACE_CHANGE = 0.035;

import { identityPaths, LIVENESS_CUE_ATTR, type LivenessResponse } from '../contract/identity';
import { identityMessages } from '../server/identity/errors';
import { expect } from './fixtures';
import {
  button,
  CHALLENGE_REFUSALS,
  heading,
  isPost,
  kyc,
  PIN,
  SELFIE_RETRIES,
  test,
  toSelfie,
} from './support/kyc';
import { showOtherFace, syntheticCameraState } from './support/synthetic-camera';

// Issue 41 item 3, one try per session, in a real browser: the probe's sequence (face A, face B,
// A again). The synthetic patient (face 'blink') passes the baseline and the first cue shows; the
// camera then shows another person ('blink-b', the other fixture pair) for 2 s, who blinks once
// in it (eyes closed 400 ms, a long natural blink), and the patient again. The blink matters: the engine describes a face (the 1024-d
// description that tells who it is) on the first frame, when it moved, and when its eyes open
// again after a closing; another face that stays where the last was with its eyes open is not
// described, so it is seen as another face when it blinks (or moves). Once something was asked,
// another face refuses the session ('face_changed', 422) instead of starting the challenge over
// with fresh cues and colours, and the page says so in the server's sentence and offers to try
// again (a new session). Synthetic patient 19 (e2e/support/kyc.ts).

/**
 * How long the other face is in front of the camera (ms), and its blink in it. A shorter blink
 * (250 ms) fell between the frames the page could capture on a loaded machine (CI, load 3-8): the
 * engine never saw the other face's eyes reopen, so it never described it, and the patient's own
 * face passed (nothing was refunded, and nothing of the other face counted, but nothing was refused
 * either).
 */
const OTHER_MS = 2_000;
const OTHER_BLINK_AT = 600;
const OTHER_CLOSED_MS = 400;

test.describe.configure({ timeout: 240_000 });
test.use({
  selfieSeed: 19,
  selfieScene: { face: 'blink', tone: 'III', lighting: 'window', other: 'blink-b' },
});

test('another face for two seconds after the first cue: the session is refused as another face', async ({
  page,
}) => {
  const answers: LivenessResponse[] = [];
  page.on('response', async (r) => {
    if (isPost(identityPaths.liveness)(r) && r.status() === 200)
      answers.push((await r.json().catch(() => ({}))) as LivenessResponse);
  });
  await toSelfie(page, PIN);
  const cue = page.locator(`[${LIVENESS_CUE_ATTR}]`);
  const retry = button(page, kyc.selfie.retry);
  let refusal: { reason?: string; message?: string } = {};
  // The challenge may refuse the patient for the light or the cues before face B's frames are
  // judged (one of its false rejections, as on a busy machine in CI, 2026-11-29: 'light_mismatch'):
  // then the patient tries again in a new session, as the journeys' patient does (SELFIE_RETRIES),
  // and face B comes again. Any other refusal, or one after the retries, fails the test.
  for (let attempt = 0; ; attempt++) {
    const refused = page.waitForResponse(
      (r) => isPost(identityPaths.liveness)(r) && r.status() === 422,
      { timeout: 120_000 },
    );
    await expect(button(page, kyc.selfie.start)).toBeEnabled({ timeout: 30_000 });
    await button(page, kyc.selfie.start).click();
    // The baseline passed: the first cue shows ('Parpadeá ahora'), unless the challenge refused first.
    await expect(cue.or(retry)).toBeVisible({ timeout: 60_000 });
    if (await cue.isVisible()) {
      expect(answers.some((a) => a.challenge?.cue)).toBe(true);
      expect((await syntheticCameraState(page)).showing).toBe('blink');
      // Face B for 2 s, blinking in it; then face A again.
      await showOtherFace(page, OTHER_MS, OTHER_BLINK_AT, OTHER_CLOSED_MS);
      await expect.poll(async () => (await syntheticCameraState(page)).showing).toBe('blink-b');
    }
    refusal = (await (await refused).json()) as typeof refusal;
    if (
      refusal.reason === 'face_changed' ||
      attempt === SELFIE_RETRIES ||
      !CHALLENGE_REFUSALS.includes(refusal.reason ?? '')
    )
      break;
    test.info().annotations.push({
      type: 'selfie-retry',
      description: `refused (${refusal.reason}) before face B was judged: 'Intentar nuevamente'`,
    });
    await retry.click();
  }

  expect(refusal.reason).toBe('face_changed');
  expect(refusal.message).toBe(identityMessages.faceChanged);
  // The page says it in the server's words and offers a new try; nothing passed.
  await expect(page.getByText(identityMessages.faceChanged, { exact: true })).toBeVisible();
  await expect(retry).toBeVisible();
  await expect(page.getByText(kyc.selfie.passed)).toHaveCount(0);
  expect(answers.every((a) => !a.liveness_detected)).toBe(true);
  await expect(heading(page, kyc.document.frontTitle)).toHaveCount(0);
  const { swaps, showing } = await syntheticCameraState(page);
  expect(swaps.length).toBeGreaterThanOrEqual(1);
  const last = swaps.at(-1)!;
  test.info().annotations.push({
    type: 'face swap',
    description: `other face from ${Math.round(last[0])} to ${Math.round(last[1])} ms (camera clock), ${swaps.length} session(s); the camera's last frame showed '${showing}'; ${answers.length} answers before it`,
  });
});

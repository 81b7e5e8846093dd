import { identityPaths, LIVENESS_CUE_ATTR, type LivenessResponse } from '../contract/identity';
import { identityMessages } from '../server/identity/errors';
import { expect } from './fixtures';
import { button, heading, isPost, kyc, PIN, test, toSelfie } from './support/kyc';
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
  blinkSeed: 14,
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
  const refused = page.waitForResponse(
    (r) => isPost(identityPaths.liveness)(r) && r.status() === 422,
    { timeout: 120_000 },
  );
  await expect(button(page, kyc.selfie.start)).toBeEnabled({ timeout: 30_000 });
  await button(page, kyc.selfie.start).click();
  // The baseline passed: the first cue shows ('Parpadeá ahora').
  await expect(page.locator(`[${LIVENESS_CUE_ATTR}]`)).toBeVisible({ timeout: 60_000 });
  expect(answers.some((a) => a.challenge?.cue)).toBe(true);
  expect((await syntheticCameraState(page)).showing).toBe('blink');
  // Face B for 2 s, blinking in it; then face A again.
  await showOtherFace(page, OTHER_MS, OTHER_BLINK_AT, OTHER_CLOSED_MS);
  await expect.poll(async () => (await syntheticCameraState(page)).showing).toBe('blink-b');

  const refusal = (await (await refused).json()) as { reason?: string; message?: string };
  expect(refusal.reason).toBe('face_changed');
  expect(refusal.message).toBe(identityMessages.faceChanged);
  // The page says it in the server's words and offers a new try; nothing passed.
  await expect(page.getByText(identityMessages.faceChanged, { exact: true })).toBeVisible();
  await expect(button(page, kyc.selfie.retry)).toBeVisible();
  await expect(page.getByText(kyc.selfie.passed)).toHaveCount(0);
  expect(answers.every((a) => !a.liveness_detected)).toBe(true);
  await expect(heading(page, kyc.document.frontTitle)).toHaveCount(0);
  const { swaps, showing } = await syntheticCameraState(page);
  expect(swaps).toHaveLength(1);
  test.info().annotations.push({
    type: 'face swap',
    description: `other face from ${Math.round(swaps[0]![0])} to ${Math.round(swaps[0]![1])} ms (camera clock); the camera's last frame showed '${showing}'; ${answers.length} answers before it`,
  });
});

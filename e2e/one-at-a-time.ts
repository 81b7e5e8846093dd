/**
 * The journeys a genuine face must pass live (the selfie challenge's blinks on cue and colours, or
 * the kiosk recognising a face from the camera) run after the other tests, with ONE LIVE FACE AT A
 * TIME on the machine. Each is a synthetic camera drawing 640 x 480 frames in Chromium, the page
 * encoding and sending them and the server's face models judging them; beside other tests on 2
 * cores the frames and the page's cues and colours came late and the selfie refused the synthetic
 * patient ('No vimos tus parpadeos cuando te los pedimos', 'No vimos en tu cara la luz de la
 * pantalla'): in CI with two at once (2026-11-30, 12-01), and here on 2026-12-01 with one beside
 * the login and recovery tests (load 11-12: 12 of 14 selfie sessions refused in the run's first 9
 * minutes), while alone after them (load 3-4) 14 of 14 passed first try, in 8-11 s. A real
 * patient's phone runs one session; the tests' refusals (recordings, prints, a face swap) stay in
 * the other project.
 *
 * Two workers run these journeys, and the live-face lock (e2e/support/live-face.ts) keeps their
 * live parts apart: the synthetic front camera opens only with the lock held and lets it go when
 * it stops; a kiosk's or desk's browser holds it while open, a blink video's drawing and the
 * operator command's --foto while they run, and the duplicate spec (its own server) throughout.
 * The rest of a journey (SMS, PIN, the cédula's upload, the back office, waits) runs
 * beside the other worker's live face. One at a time, the journeys took 764 s of tests here
 * (2026-12-01, load 2-3), of which the selfies about 250 and the kiosk's specs about 260.
 *
 * A spec that passes a live selfie or the kiosk (passSelfie, finishIdentity, kioskDecision) belongs
 * here: tests/contract/e2e-one-at-a-time.test.ts checks it. Names without '.spec.ts'.
 */
export const ONE_AT_A_TIME_SPECS = [
  'assisted-verification',
  'duplicate-registration',
  'face-login',
  'insight',
  'kyc',
  'kyc-backlight',
  'kyc-capture',
  'kyc-card-layouts',
  'kyc-distance',
  'kyc-fill',
  'kyc-mismatch',
  'kyc-review-retry',
  'kyc-session-expiry',
  'my-data-walk',
  'onboarding-phone',
  'onboarding-resume',
  'onboarding-resume-selfie',
] as const;

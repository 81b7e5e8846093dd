/**
 * The journeys a genuine face must pass live (the selfie challenge's blinks on cue and colours, or
 * the kiosk recognising a face from the camera) run one at a time, after the other tests, alone on
 * the machine. Each is a synthetic camera drawing 640 x 480 frames in Chromium, the page encoding
 * and sending them and the server's face models judging them; beside other tests on 2 cores the
 * frames and the page's cues and colours came late and the selfie refused the synthetic patient
 * ('No vimos tus parpadeos cuando te los pedimos', 'No vimos en tu cara la luz de la pantalla'):
 * in CI with two at once (2026-11-30, 12-01), and here on 2026-12-01 with one beside the login and
 * recovery tests (load 11-12: 12 of 14 selfie sessions refused in the run's first 9 minutes), while
 * alone after them (load 3-4) 14 of 14 passed first try, in 8-11 s. A real patient's phone runs one
 * session; the tests' refusals (recordings, prints, a face swap) stay in the other project.
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

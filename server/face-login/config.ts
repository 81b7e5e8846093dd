import { z } from 'zod';
import { bool, int, parseEnv } from '../env';
import {
  FACE_LOGIN_INTERVAL_MS,
  FACE_LOGIN_MIN_INTERVAL_MS,
  FACE_LOGIN_PREFIX,
} from '../../contract/face-login';

/** Settings of face authentication and kiosk devices, from the environment with safe defaults. */

const schema = z.object({
  FACE_AUTH_PREFIX: z
    .string()
    .regex(/^\/[a-z0-9/_-]*[a-z0-9]$/i)
    .default(FACE_LOGIN_PREFIX),
  FACE_AUTH_REQUIRE_DEVICE: bool.optional(),
  FACE_AUTH_INTERVAL_MS: int(FACE_LOGIN_INTERVAL_MS, FACE_LOGIN_MIN_INTERVAL_MS, 10_000),
  FACE_AUTH_BLINKS_REQUIRED: int(1, 1, 10),
  FACE_AUTH_LIVENESS_SECONDS: int(30, 5, 600),
  FACE_AUTH_FRAMES_PER_MINUTE: int(400, 1),
  FACE_AUTH_SESSIONS_PER_MINUTE: int(40, 1),
  FACE_AUTH_SESSION_MINUTES: int(5, 1, 60),
  KIOSK_ACTIVATION_HOURS: int(24, 1, 24 * 30),
  KIOSK_DEVICE_DAYS: int(365, 1, 400),
  PUBLIC_URL: z.string().url().optional(),
});

export type FaceLoginConfig = {
  /** Where POST start/frame/stop live (spec 7: 'prefix configurable'). */
  prefix: string;
  /** Only activated kiosk devices may call the endpoints (default: in production). */
  requireDevice: boolean;
  /** The frame interval the server recommends. */
  intervalMs: number;
  /** The kiosk liveness profile: attended, so a shorter challenge (blinks) and time limit. */
  blinksRequired: number;
  livenessSeconds: number;
  /** Per device (or per client address without one). */
  framesPerMinute: number;
  sessionsPerMinute: number;
  /** An attempt and its decision are forgotten after this long (stop forgets at once). */
  sessionTtlMs: number;
  activationTtlMs: number;
  deviceCookieMaxAgeS: number;
  /** Base of the activation link printed by `npm run kiosk -- add`. */
  publicUrl: string | undefined;
};

export function loadFaceLoginConfig(
  env: Record<string, string | undefined>,
  appEnv: 'development' | 'production' | 'test',
): FaceLoginConfig {
  const c = parseEnv(schema, env);
  return {
    prefix: c.FACE_AUTH_PREFIX,
    requireDevice: c.FACE_AUTH_REQUIRE_DEVICE ?? appEnv === 'production',
    intervalMs: c.FACE_AUTH_INTERVAL_MS,
    blinksRequired: c.FACE_AUTH_BLINKS_REQUIRED,
    livenessSeconds: c.FACE_AUTH_LIVENESS_SECONDS,
    framesPerMinute: c.FACE_AUTH_FRAMES_PER_MINUTE,
    sessionsPerMinute: c.FACE_AUTH_SESSIONS_PER_MINUTE,
    sessionTtlMs: c.FACE_AUTH_SESSION_MINUTES * 60_000,
    activationTtlMs: c.KIOSK_ACTIVATION_HOURS * 3_600_000,
    deviceCookieMaxAgeS: c.KIOSK_DEVICE_DAYS * 86_400,
    publicUrl: c.PUBLIC_URL,
  };
}

import type { Db } from '../db/client';
import type {
  FaceLoginFrameResponse,
  FaceLoginResult,
  FaceLoginStage,
} from '../../contract/face-login';
import { HttpError } from '../http/errors';
import { recordAccess } from '../my-data/access-log';
import type { IdentityEngine, IdentityLog } from '../identity/engine';
import { hints } from '../identity/hints';
import { blinkDecider, type LivenessDecider } from '../identity/liveness';
import { rejectSession, sessionSelfie } from '../identity/store';
import type { FaceLoginConfig } from './config';
import { faceLoginMessages } from './messages';

/**
 * Face authentication: a liveness session with the kiosk profile (attended, so one blink by
 * default), the same gates, duplicate and replay checks as the selfie; only a live face is
 * identified (1:N over enrolled faces, the configured threshold). A still photo never blinks and
 * its repeated frames are duplicates, so it never reaches identification.
 */
type FaceLoginDeps = {
  db: Db;
  engine: () => Promise<IdentityEngine>;
  config: FaceLoginConfig;
  log: IdentityLog;
};

/** Who calls: an activated device, or (where no credential is required) a client address. */
export type Caller = { deviceId: string | null; key: string };

const KIOSK_PROFILE = 'kiosk';

/** The kiosk's liveness decider: the blink decider with the kiosk's blink count and time limit. */
function kioskDecider(engine: IdentityEngine, cfg: FaceLoginConfig): LivenessDecider<unknown> {
  const base = blinkDecider({
    ...engine.config.liveness,
    blinksRequired: cfg.blinksRequired,
    timeLimitMs: cfg.livenessSeconds * 1000,
    continuityThreshold: engine.config.continuityThreshold,
  }) as LivenessDecider<unknown>;
  return { ...base, name: KIOSK_PROFILE };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ms = (t0: number) => Math.round(performance.now() - t0);
const short = (id: string) => id.slice(0, 8);

type Row = {
  stage: FaceLoginStage | 'identifying';
  client_key: string;
  patient_id: string | null;
  confidence: number | null;
  threshold: number | null;
  message: string | null;
  full_name: string | null;
  given_names: string | null;
  numero_documento: string | null;
  /** the recognised patient locked their face, or withdrew it, since the decision (issue 45) */
  refused: boolean;
};

/** What a refused recognition decides: exactly what a search that found nobody decides. */
const NOT_FOUND = {
  stage: 'failed' as const,
  patientId: null,
  confidence: null,
  message: faceLoginMessages.notRecognised,
};

/**
 * Whether a recognised patient is refused (issue 45 item 4): their face locked, or withdrawn since
 * the search read it. Reads the patient's row FOR SHARE inside the decision's transaction.
 */
async function faceRefused(tx: Db, patientId: string): Promise<'locked' | 'withdrawn' | null> {
  const { rows } = await tx.query<{ locked: boolean; enrolled: boolean }>(
    `SELECT p.face_locked_at IS NOT NULL AS locked,
            EXISTS (SELECT 1 FROM face_enrollments e WHERE e.patient_id = p.id) AS enrolled
       FROM patients p WHERE p.id = $1 FOR SHARE OF p`,
    [patientId],
  );
  const row = rows[0];
  if (!row || !row.enrolled) return 'withdrawn';
  return row.locked ? 'locked' : null;
}

export function createFaceLogin(deps: FaceLoginDeps) {
  const { db, config: cfg, log } = deps;
  const deciders = new WeakMap<IdentityEngine, LivenessDecider<unknown>>();
  const profileOf = (e: IdentityEngine) => {
    let d = deciders.get(e);
    if (!d) deciders.set(e, (d = kioskDecider(e, cfg)));
    return d;
  };

  /** Drops a session's face description (it was only needed for the decision). */
  const forgetFace = (sessionId: string) =>
    rejectSession(db, sessionId, 'face-login', { decider: KIOSK_PROFILE });

  async function purge() {
    const { rows } = await db.query<{ session_id: string }>(
      `DELETE FROM face_auth_sessions WHERE created_at < now() - ($1::bigint * interval '1 millisecond')
        RETURNING session_id::text AS session_id`,
      [cfg.sessionTtlMs],
    );
    for (const r of rows) await forgetFace(r.session_id);
  }

  async function load(sessionId: string, caller: Caller): Promise<Row> {
    if (!UUID.test(sessionId)) throw new HttpError(400, faceLoginMessages.sessionInvalid);
    const { rows } = await db.query<Row>(
      `SELECT f.stage, f.client_key, f.patient_id::text AS patient_id, f.confidence, f.threshold, f.message,
              p.nombre || ' ' || p.apellido AS full_name, p.nombre AS given_names, p.numero_documento,
              (p.face_locked_at IS NOT NULL
               OR NOT EXISTS (SELECT 1 FROM face_enrollments e WHERE e.patient_id = f.patient_id))
                AS refused
         FROM face_auth_sessions f LEFT JOIN patients p ON p.id = f.patient_id
        WHERE f.session_id = $1 AND f.created_at > now() - ($2::bigint * interval '1 millisecond')`,
      [sessionId, cfg.sessionTtlMs],
    );
    const row = rows[0];
    // Another device's session is answered as unknown: a session id is no bearer credential.
    if (!row || row.client_key !== caller.key)
      throw new HttpError(400, faceLoginMessages.sessionInvalid);
    return row;
  }

  const resultOf = (row: Row): FaceLoginResult | null => {
    // A face locked or withdrawn after the decision (a recognition in flight when the lock
    // landed) answers as not recognised from then on: the patient is never named.
    if (row.stage === 'authenticated' && row.refused)
      return resultOf({ ...row, stage: 'failed', message: null, refused: false });
    if (row.stage === 'authenticated' && row.full_name && row.numero_documento) {
      const confidence = Number(Number(row.confidence).toFixed(4));
      return {
        success: true,
        message: row.message ?? faceLoginMessages.recognised,
        user: {
          full_name: row.full_name,
          given_names: row.given_names ?? '',
          document_number: row.numero_documento,
          face_match_confidence: confidence,
        },
        authentication: { confidence, threshold_used: Number(row.threshold) },
      };
    }
    if (row.stage === 'failed' || row.stage === 'authenticated')
      return {
        success: false,
        message: row.message ?? faceLoginMessages.notRecognised,
        time_up: row.message === hints.timeUp,
        user: null,
        // The best score of a failed search is not shown: it would help tune a forgery.
        authentication:
          row.threshold === null
            ? null
            : { confidence: null, threshold_used: Number(row.threshold) },
      };
    return null;
  };

  const answerOf = (row: Row, feedback: string[]): FaceLoginFrameResponse => {
    const result = resultOf(row);
    return {
      stage: result ? (result.success ? 'authenticated' : 'failed') : 'liveness',
      feedback,
      recommended_interval_ms: cfg.intervalMs,
      result,
    };
  };

  return {
    async start(caller: Caller) {
      const engine = await deps.engine();
      await purge();
      const { sessionId } = await engine.startSession(db, { profile: profileOf(engine) });
      await db.query(
        'INSERT INTO face_auth_sessions (session_id, device_id, client_key) VALUES ($1, $2, $3)',
        [sessionId, caller.deviceId, caller.key],
      );
      log.info({ event: 'face_auth_start', session: short(sessionId), device: caller.deviceId });
      // The 1:N gallery is brought up to date while the patient blinks, not on the deciding frame:
      // the first read after start is the whole table (seconds with 10,000 enrolled), later ones
      // only the rows written since. Not awaited; a failure leaves it to the identification.
      void Promise.resolve()
        .then(() => engine.refreshGallery(db))
        .catch((err: unknown) => log.warn({ event: 'gallery_refresh_failed', error: String(err) }));
      return {
        success: true as const,
        session_id: sessionId,
        recommended_interval_ms: cfg.intervalMs,
        profile: KIOSK_PROFILE,
      };
    },

    async frame(
      caller: Caller,
      sessionId: string,
      image: Uint8Array,
    ): Promise<FaceLoginFrameResponse> {
      const t0 = performance.now();
      const row = await load(sessionId, caller);
      // Decided (or being decided by a concurrent request): the decision, not another one.
      if (row.stage !== 'liveness') return answerOf(row, []);
      const engine = await deps.engine();
      const live = await engine.livenessFrame(db, sessionId, image, { profile: profileOf(engine) });
      const tLive = performance.now();
      const timeUp = live.time_up;
      if (!live.liveness_detected && !timeUp) return answerOf(row, live.feedback);

      // Liveness is decided: claim the decision (of two concurrent frames, one identifies).
      const claim = await db.query(
        `UPDATE face_auth_sessions SET stage = 'identifying' WHERE session_id = $1 AND stage = 'liveness' RETURNING 1`,
        [sessionId],
      );
      if (claim.rows.length === 0) return answerOf(await load(sessionId, caller), []);
      let stage: 'authenticated' | 'failed' = 'failed';
      let patientId: string | null = null;
      let confidence: number | null = null;
      let threshold: number | null = null;
      let best: number | null = null;
      let message: string = timeUp ? hints.timeUp : faceLoginMessages.notRecognised;
      let refusedFor: 'locked' | 'withdrawn' | null = null;
      try {
        if (!timeUp) {
          const embedding = await sessionSelfie(db, sessionId);
          if (embedding) {
            const found = await engine.identify(db, { embedding });
            threshold = found.threshold;
            best = found.best?.similarity ?? null;
            if (found.match) {
              stage = 'authenticated';
              patientId = found.match.patientId;
              confidence = found.match.similarity;
              message = faceLoginMessages.recognised;
            }
          }
        }
        const decided = { stage, patientId, confidence, message };
        refusedFor = await db.transaction(async (tx) => {
          // 'Mi rostro' (issue 45 item 4): the patient's row, read FOR SHARE, orders this decision
          // with a lock or a withdrawal. A locked patient is refused exactly like nobody found
          // (same stage, message and answer) and the try is written to their log as 'locked'.
          const refused = decided.patientId ? await faceRefused(tx, decided.patientId) : null;
          if (refused) Object.assign(decided, NOT_FOUND);
          await tx.query(
            `UPDATE face_auth_sessions SET stage = $2, patient_id = $3, confidence = $4, threshold = $5,
                    message = $6, decided_at = now() WHERE session_id = $1`,
            [
              sessionId,
              decided.stage,
              decided.patientId,
              decided.confidence,
              threshold ?? engine.config.matchThreshold,
              decided.message,
            ],
          );
          // 'Quién vio mis datos' (issue 45): a recognition, at a kiosk or on the manual page.
          if (patientId && refused !== 'withdrawn')
            await recordAccess(tx, {
              patientId,
              kind: caller.deviceId ? 'kiosk' : 'face_login',
              result: refused ? 'locked' : 'ok',
              deviceId: caller.deviceId,
              at: new Date(),
            });
          return refused;
        });
        ({ stage, patientId, confidence } = decided);
      } catch (err) {
        // Never leave an attempt half-decided: it fails, and the error is answered as usual.
        await db.query(
          `UPDATE face_auth_sessions SET stage = 'failed', threshold = $2, decided_at = now() WHERE session_id = $1`,
          [sessionId, engine.config.matchThreshold],
        );
        throw err;
      } finally {
        await forgetFace(sessionId);
      }
      log.info({
        event: 'face_auth_decision',
        session: short(sessionId),
        device: caller.deviceId,
        live: !timeUp,
        stage,
        patientId,
        ...(refusedFor ? { refused: refusedFor } : {}),
        best,
        threshold: threshold ?? engine.config.matchThreshold,
        ms: { total: ms(t0), liveness: Math.round(tLive - t0), identify: ms(tLive) },
      });
      return answerOf(await load(sessionId, caller), [live.feedback.at(-1) ?? hints.done]);
    },

    /** Ends an attempt and forgets its decision (who was recognised) at once. */
    async stop(caller: Caller, sessionId: string) {
      if (!UUID.test(sessionId)) return { success: true };
      const { rows } = await db.query(
        'DELETE FROM face_auth_sessions WHERE session_id = $1 AND client_key = $2 RETURNING 1',
        [sessionId, caller.key],
      );
      if (rows.length) await forgetFace(sessionId);
      log.info({ event: 'face_auth_stop', session: short(sessionId), device: caller.deviceId });
      return { success: true };
    },
  };
}

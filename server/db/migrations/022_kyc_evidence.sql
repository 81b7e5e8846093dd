-- Assisted verification (issue 30): what a KYC session captured, kept for a person to review when
-- the engine cannot decide. One row per KYC session (never for the kiosk's face-auth sessions),
-- deleted with its session by the engine's purge. Images and the fields read are personal data:
-- they are stored only sealed (AES-256-GCM under CASES_KEY, server/security/sealed.ts), each bound
-- to 'kyc:<session id>:<column>' (selfie, front, back, portrait, id_data).
CREATE TABLE kyc_evidence (
  session_id uuid PRIMARY KEY REFERENCES kyc_sessions (id) ON DELETE CASCADE,
  -- the deciding selfie frame (JPEG, sealed) and its rank: 2 for the liveness decider's best
  -- described frame, below 1 for a frame with one face that did not pass the gates (its quality)
  selfie bytea,
  selfie_rank real,
  -- the last scan's front and back (JPEG, sealed), the card's portrait cropped from the
  -- straightened front (JPEG, sealed), and the fields it read (JSON, sealed), even when refused
  front bytea,
  back bytea,
  portrait bytea,
  id_data bytea,
  -- the engine's refusal codes in this session, oldest first (the last 20)
  reasons text[] NOT NULL DEFAULT '{}',
  face_similarity real,
  face_threshold real,
  -- liveness requests decided, document scans run
  liveness_attempts integer NOT NULL DEFAULT 0,
  scans integer NOT NULL DEFAULT 0,
  selfie_embedding real[],
  portrait_embedding real[],
  -- a session made for the repeat of one side (createLiveSession): the side kept, used by a scan
  -- that sends only the other
  keep_front boolean NOT NULL DEFAULT false,
  keep_back boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A session made for a repeat, or by an operator's approval, lives as long as its case allows
-- (up to the resume window, weeks): its idle limit is then as long as its life, past integer ms.
ALTER TABLE kyc_sessions ALTER COLUMN idle_ms TYPE bigint;

-- Identity engine: KYC sessions (liveness state lives here so any API process can take the next
-- frame), frame fingerprints (duplicate and replay detection), enrolled face embeddings (no photos
-- unless IDENTITY_STORE_PHOTOS says so).
CREATE TABLE kyc_sessions (
  id uuid PRIMARY KEY,
  -- liveness | live | completed | rejected
  status text NOT NULL DEFAULT 'liveness',
  decider text NOT NULL,
  liveness_state jsonb NOT NULL,
  frame_seq integer NOT NULL DEFAULT 0,
  -- The best open-eye frame's 1024-d description: the session's selfie.
  selfie_embedding real[],
  selfie_photo bytea,
  -- id_data and the checks that passed, once the document is read.
  result jsonb,
  reject_reason text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  live_at timestamptz,
  completed_at timestamptz,
  consumed_at timestamptz
);
CREATE INDEX kyc_sessions_expires_idx ON kyc_sessions (expires_at);

-- Perceptual fingerprints of analysed frames: thumb for the near-duplicate distance within a session,
-- dhash split in four 16-bit bands so a replay into another session is found through an index.
CREATE TABLE liveness_frames (
  session_id uuid NOT NULL REFERENCES kyc_sessions (id) ON DELETE CASCADE,
  seq integer NOT NULL,
  thumb bytea NOT NULL,
  dhash bigint NOT NULL,
  b0 integer NOT NULL,
  b1 integer NOT NULL,
  b2 integer NOT NULL,
  b3 integer NOT NULL,
  counted boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (session_id, seq)
);
CREATE INDEX liveness_frames_b0_idx ON liveness_frames (b0) WHERE counted;
CREATE INDEX liveness_frames_b1_idx ON liveness_frames (b1) WHERE counted;
CREATE INDEX liveness_frames_b2_idx ON liveness_frames (b2) WHERE counted;
CREATE INDEX liveness_frames_b3_idx ON liveness_frames (b3) WHERE counted;
CREATE INDEX liveness_frames_created_idx ON liveness_frames (created_at);

-- One enrolled face per patient, for 1:N identification.
CREATE TABLE face_enrollments (
  patient_id bigint PRIMARY KEY REFERENCES patients (id) ON DELETE CASCADE,
  embedding real[] NOT NULL,
  model text NOT NULL,
  photo bytea,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Face authentication (issue 9): trusted kiosk devices and the face-auth side of liveness sessions.

-- A device the operator trusts (`npm run kiosk -- add NAME`). Only SHA-256 hashes of the one-time
-- activation token and of the device cookie are stored.
CREATE TABLE kiosk_devices (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  activation_hash text UNIQUE,
  activation_expires_at timestamptz,
  token_hash text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  activated_at timestamptz,
  last_seen_at timestamptz,
  revoked_at timestamptz
);

-- One row per face-authentication attempt, beside its liveness session (kyc_sessions, decider
-- 'kiosk'). The decision keeps the patient id and scores only while the attempt is open: stop (or
-- the purge) deletes the row and the session's face description.
CREATE TABLE face_auth_sessions (
  session_id uuid PRIMARY KEY REFERENCES kyc_sessions (id) ON DELETE CASCADE,
  device_id bigint REFERENCES kiosk_devices (id) ON DELETE CASCADE,
  client_key text NOT NULL,
  -- liveness | identifying | authenticated | failed
  stage text NOT NULL DEFAULT 'liveness',
  patient_id bigint REFERENCES patients (id) ON DELETE CASCADE,
  confidence real,
  threshold real,
  message text,
  created_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz
);
CREATE INDEX face_auth_sessions_created_idx ON face_auth_sessions (created_at);

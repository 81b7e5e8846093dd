-- PIN recovery (issue 8): single-use grants that let one browser set a new PIN for one document,
-- issued by validate-pin-otp on the right code. Only a SHA-256 of the grant is stored.
CREATE TABLE recovery_grants (
  token_hash text PRIMARY KEY,
  patient_id bigint NOT NULL REFERENCES patients (id) ON DELETE CASCADE,
  numero_documento text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  -- used by set-new-pin, or superseded by a newer grant or a PIN change
  consumed_at timestamptz
);
CREATE INDEX recovery_grants_patient_idx ON recovery_grants (patient_id, created_at);

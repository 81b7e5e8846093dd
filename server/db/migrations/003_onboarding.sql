-- One-time codes (onboarding now, PIN recovery later), the development SMS outbox, the SMS send
-- log, the shared rate-limit ledger and the server-side record of verified phones.

-- A code is stored only as an HMAC (never in clear). The newest live code of a phone and purpose
-- is the only one that can be used: issuing a new one supersedes the previous ones.
CREATE TABLE otp_codes (
  id bigserial PRIMARY KEY,
  celular text NOT NULL,
  purpose text NOT NULL CHECK (purpose IN ('onboarding', 'pin_recovery')),
  code_hmac text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  failed_attempts integer NOT NULL DEFAULT 0,
  consumed_at timestamptz,
  -- superseded by a newer code or killed by too many wrong tries
  revoked_at timestamptz
);
CREATE INDEX otp_codes_phone_idx ON otp_codes (celular, purpose, created_at DESC);

-- Development outbox: what the outbox SMS provider "sends" (never used in production by default).
CREATE TABLE sms_outbox (
  id bigserial PRIMARY KEY,
  celular text NOT NULL,
  purpose text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX sms_outbox_phone_idx ON sms_outbox (celular, created_at DESC);

-- Every send attempt, whatever the provider (no message body: it holds the code).
CREATE TABLE sms_send_log (
  id bigserial PRIMARY KEY,
  celular text NOT NULL,
  purpose text NOT NULL,
  provider text NOT NULL,
  client_ip text,
  status text NOT NULL CHECK (status IN ('sent', 'failed')),
  error text,
  at timestamptz NOT NULL
);
CREATE INDEX sms_send_log_phone_idx ON sms_send_log (celular, at);

-- Sliding-window rate limits shared by every API process: one row per counted event.
CREATE TABLE rate_limit_events (
  id bigserial PRIMARY KEY,
  bucket text NOT NULL,
  key text NOT NULL,
  at timestamptz NOT NULL
);
CREATE INDEX rate_limit_events_idx ON rate_limit_events (bucket, key, at);

-- A phone whose code was validated, per purpose; registration requires a recent, unused one.
CREATE TABLE phone_verifications (
  celular text NOT NULL,
  purpose text NOT NULL,
  verified_at timestamptz NOT NULL,
  consumed_at timestamptz,
  PRIMARY KEY (celular, purpose)
);

-- One registration per KYC session: a double submit answers the same success, one patient.
CREATE TABLE onboarding_registrations (
  session_id text PRIMARY KEY,
  patient_id bigint NOT NULL REFERENCES patients (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL
);

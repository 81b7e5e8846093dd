-- Registration that survives real life (issue 18). Once the mobile is verified by SMS, what the
-- patient finished is kept here so a lost page resumes at the first unfinished step: the e-mail,
-- the PIN's Argon2id hash (never the PIN), the KYC session (whose own expiry bounds a passed selfie
-- and a read document). One registration per mobile; forgotten at expires_at (ONBOARDING_RESUME_HOURS
-- after the first verification), purged by the server.
CREATE TABLE registration_drafts (
  id uuid PRIMARY KEY,
  celular text NOT NULL UNIQUE,
  email text,
  pin_hash text,
  terms_accepted_at timestamptz,
  kyc_session_id text UNIQUE,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  completed_at timestamptz
);
CREATE INDEX registration_drafts_expires_idx ON registration_drafts (expires_at);

-- Bearer tokens of a registration, stored as SHA-256 only. 'device': what a browser holds after
-- proving the mobile (validate-otp) or opening a link, until the registration ends. 'link': the
-- one-time token of the SMS link that continues the registration on the phone (ONBOARDING_LINK_MINUTES),
-- dead once used (used_at), when a newer link is sent, or when the mobile is verified again.
CREATE TABLE registration_tokens (
  token_hash text PRIMARY KEY,
  draft_id uuid NOT NULL REFERENCES registration_drafts (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('device', 'link')),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX registration_tokens_draft_idx ON registration_tokens (draft_id, kind);

-- The registration replaces the verified-phone record registration used to check.
DROP TABLE phone_verifications;

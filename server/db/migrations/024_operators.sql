-- The back office's operators (issue 30): accounts created by `npm run operadores`, their passkeys
-- (WebAuthn credentials), one-time enrolment links, sessions and login challenges. Written by
-- server/operators/ only. Tokens (enrolment links, session cookies) are stored as SHA-256 only.
CREATE TABLE operators (
  id uuid PRIMARY KEY,
  usuario text NOT NULL UNIQUE,
  nombre text NOT NULL,
  rol text NOT NULL CHECK (rol IN ('revisor', 'supervisor')),
  -- WebAuthn user handle (16 random bytes, base64url): what a discoverable passkey returns
  user_handle text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz
);

-- Passkeys: the credential id (base64url), its COSE public key, signature counter and transports.
CREATE TABLE operator_credentials (
  id text PRIMARY KEY,
  operator_id uuid NOT NULL REFERENCES operators (id),
  public_key bytea NOT NULL,
  counter bigint NOT NULL,
  transports text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL,
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX operator_credentials_operator_idx ON operator_credentials (operator_id);

-- One-time enrolment links (24 h). `challenge`: the registration challenge of the last options
-- asked with this link (5 minutes). Spent (used_at) by the verified passkey; a newer link or a
-- revocation kills it (used_at too).
CREATE TABLE operator_enrolments (
  token_hash text PRIMARY KEY,
  operator_id uuid NOT NULL REFERENCES operators (id),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  challenge text,
  challenge_expires_at timestamptz
);
CREATE INDEX operator_enrolments_operator_idx ON operator_enrolments (operator_id);

-- Operator sessions (cookie operador_sesion): idle and absolute limits, ended by logging out or
-- by a revocation.
CREATE TABLE operator_sessions (
  id_hash text PRIMARY KEY,
  operator_id uuid NOT NULL REFERENCES operators (id),
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  ended_at timestamptz
);
CREATE INDEX operator_sessions_operator_idx ON operator_sessions (operator_id);

-- Login challenges (discoverable passkeys: no user named): single use (deleted when used), 5 minutes.
CREATE TABLE operator_challenges (
  id text PRIMARY KEY,
  challenge text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX operator_challenges_expires_idx ON operator_challenges (expires_at);

-- Assisted verification (issue 30): a case is opened when automatic identity verification cannot
-- decide; a person reviews it ('review') or the patient verifies at a health centre with a code
-- ('centro'). One writer: server/cases/. Everything that identifies the patient (images, the fields
-- read, corrections, face embeddings) is sealed (AES-256-GCM under CASES_KEY, bound to
-- 'case:<id>:<part>', server/security/sealed.ts) and deleted CASES_RETENTION_DAYS after the
-- decision (purged_at); the row itself stays, without them, for the report and the audit log.
CREATE TABLE cases (
  id uuid PRIMARY KEY,
  -- the registration it belongs to; a registration forgotten later leaves the case's record
  draft_id uuid REFERENCES registration_drafts (id) ON DELETE SET NULL,
  -- the registration's mobile, for the code and decision SMS (cleared by the purge)
  celular text,
  kind text NOT NULL CHECK (kind IN ('review', 'centro')),
  status text NOT NULL CHECK (status IN ('open', 'approved', 'rejected', 'repeat', 'expired')),
  trigger text NOT NULL,
  step text NOT NULL CHECK (step IN ('selfie', 'front', 'back')),
  -- the KYC session whose evidence the case copied
  kyc_session_id text,
  opened_at timestamptz NOT NULL,
  -- review: when the patient is told to expect an answer; centro: the code's deadline
  expected_by timestamptz NOT NULL,
  code text,
  code_expires_at timestamptz,
  -- sealed evidence (NULL: not captured, or purged)
  selfie bytea,
  portrait bytea,
  front bytea,
  back bytea,
  desk bytea,
  fields bytea,
  corrections bytea,
  selfie_embedding bytea,
  portrait_embedding bytea,
  desk_embedding bytea,
  -- the engine's reason codes (oldest first), its scores and the attempts: no personal data
  engine_reasons jsonb NOT NULL DEFAULT '[]',
  face_similarity double precision,
  face_threshold double precision,
  desk_similarity double precision,
  attempts_liveness integer NOT NULL DEFAULT 0,
  attempts_scans integer NOT NULL DEFAULT 0,
  -- approved once; a different supervisor decides now (SUPERVISED_TRIGGERS)
  needs_supervisor boolean NOT NULL DEFAULT false,
  claimed_by text,
  claimed_usuario text,
  claimed_at timestamptz,
  last_activity_at timestamptz,
  -- [{operatorId, usuario, at}]
  approvals jsonb NOT NULL DEFAULT '[]',
  decided_at timestamptz,
  decided_by text,
  reject_reason text,
  repeat_step text CHECK (repeat_step IN ('selfie', 'front', 'back')),
  -- the KYC session a decision created (approved: verified; repeat of a side: live)
  decision_session_id text,
  purge_after timestamptz,
  purged_at timestamptz
);
-- One open case per registration (two opens at once: one case).
CREATE UNIQUE INDEX cases_one_open_idx ON cases (draft_id) WHERE status = 'open';
CREATE UNIQUE INDEX cases_code_idx ON cases (code) WHERE code IS NOT NULL;
CREATE INDEX cases_draft_idx ON cases (draft_id, opened_at);
CREATE INDEX cases_queue_idx ON cases (opened_at) WHERE status = 'open' AND kind = 'review';
CREATE INDEX cases_purge_idx ON cases (purge_after) WHERE purged_at IS NULL;

-- Every look and action on a case, append-only (the trigger refuses UPDATE and DELETE). No images,
-- no field values: which field and the reason. No foreign key: the record outlives the case's data.
CREATE TABLE case_audit (
  id bigserial PRIMARY KEY,
  case_id uuid,
  operator_id text,
  operator_usuario text,
  action text NOT NULL,
  detail jsonb NOT NULL DEFAULT '{}',
  at timestamptz NOT NULL
);
CREATE INDEX case_audit_case_idx ON case_audit (case_id, at);
CREATE INDEX case_audit_at_idx ON case_audit (at);
CREATE FUNCTION case_audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'case_audit is append-only'; END $$;
CREATE TRIGGER case_audit_append_only BEFORE UPDATE OR DELETE ON case_audit FOR EACH ROW EXECUTE FUNCTION case_audit_append_only();

-- 'Mis datos' (issue 45 items 2 and 7). Written by server/my-data only.
--
-- The patient's download: one row per patient while a file is being built or may be fetched. The
-- row is the claim that makes a flood of requests cost one build per window (INSERT ... ON
-- CONFLICT DO NOTHING: the one that inserts builds). The file and the link's token are sealed under
-- CASES_KEY (AES-256-GCM, bound to 'download:<patient>:<part>'); the token is looked up by its
-- SHA-256 only. Deleted when it expires (MY_DATA_DOWNLOAD_MINUTES) and with the patient.
CREATE TABLE my_data_downloads (
  patient_id bigint PRIMARY KEY REFERENCES patients (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('building', 'ready')),
  token_hash text UNIQUE,
  token bytea,
  file bytea,
  file_name text,
  size integer,
  requested_at timestamptz NOT NULL,
  built_at timestamptz,
  -- building: when a build that did not finish is given up; ready: when the link expires
  expires_at timestamptz NOT NULL
);
CREATE INDEX my_data_downloads_expires_idx ON my_data_downloads (expires_at);

-- Secondary uses (issue 45 item 7): the patient's opt-out of any use of their data beyond their own
-- care. No row: not opted out (nothing beyond care reads patient data today; see
-- docs/my-data.md). Every reader of patient data for anything else reads through
-- secondary_use_allowed, which leaves the opted-out patients out.
CREATE TABLE patient_secondary_use (
  patient_id bigint PRIMARY KEY REFERENCES patients (id) ON DELETE CASCADE,
  opted_out boolean NOT NULL,
  changed_at timestamptz NOT NULL
);
CREATE VIEW secondary_use_allowed AS
  SELECT p.id AS patient_id FROM patients p
   WHERE NOT EXISTS (
     SELECT 1 FROM patient_secondary_use s WHERE s.patient_id = p.id AND s.opted_out);

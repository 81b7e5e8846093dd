-- Duplicates at registration, to a person (issue 44 item 3). When a KYC session passes, its
-- selfie's face is searched exactly among every enrolled face in the background
-- (server/identity/duplicates-face.ts, its only writer); registration reads the result and searches
-- again, exactly, what was enrolled since. No face description is kept here: the best enrolled
-- patient at or above the threshold, its similarity and the threshold used.
CREATE TABLE face_duplicate_checks (
  session_id uuid PRIMARY KEY REFERENCES kyc_sessions (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('pending', 'clear', 'match')),
  -- every enrolment written by this transaction or a later one may be missing from the search
  -- (pg_snapshot_xmin of the search's snapshot): registration searches those again
  since_xid xid8,
  patient_id bigint REFERENCES patients (id) ON DELETE SET NULL,
  similarity double precision,
  threshold double precision NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  checked_at timestamptz
);

-- A 'duplicate' case ('Posible duplicado'): registration opens it, a supervisor decides it. It names
-- the enrolled patient (duplicate_of, no personal data), the exact similarity and the threshold;
-- what the supervisor reads of that patient (document number, name, registration date) is sealed
-- in `duplicate` ('case:<id>:duplicate') and purged with the case's other sealed parts.
ALTER TABLE cases DROP CONSTRAINT cases_kind_check;
ALTER TABLE cases ADD CONSTRAINT cases_kind_check CHECK (kind IN ('review', 'centro', 'duplicate'));
ALTER TABLE cases ADD COLUMN duplicate_of bigint REFERENCES patients (id) ON DELETE SET NULL;
ALTER TABLE cases ADD COLUMN duplicate_similarity double precision;
ALTER TABLE cases ADD COLUMN duplicate_threshold double precision;
ALTER TABLE cases ADD COLUMN duplicate bytea;
CREATE INDEX cases_duplicate_queue_idx ON cases (opened_at) WHERE status = 'open' AND kind = 'duplicate';

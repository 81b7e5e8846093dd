-- The face index (issue 44, server/identity/face-index.ts): an HNSW file on disk built from
-- face_enrollments (which stays the source of truth) and brought up to date by polling what changed.
-- Rows written since a load are found by face_enrollments.change_xid (migration 016); a removed
-- enrolment (its patient deleted, ON DELETE CASCADE, or the row deleted) leaves a row here, stamped
-- with the deleting transaction, so every process drops it without a full reload. A TRUNCATE gives
-- the database a new face-index identity (below): every process rebuilds.
CREATE TABLE face_enrollment_deletions (
  patient_id bigint NOT NULL,
  change_xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  deleted_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX face_enrollment_deletions_change_xid_idx ON face_enrollment_deletions (change_xid);
CREATE FUNCTION face_enrollments_deleted() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO face_enrollment_deletions (patient_id) VALUES (OLD.patient_id); RETURN OLD; END $$;
CREATE TRIGGER face_enrollments_deleted AFTER DELETE ON face_enrollments FOR EACH ROW EXECUTE FUNCTION face_enrollments_deleted();
-- Which database an index file was built from (a file of another database, or of this one before
-- it was emptied, is never used). Created again when missing.
CREATE TABLE face_index_identity (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  database_id uuid NOT NULL DEFAULT gen_random_uuid()
);
INSERT INTO face_index_identity DEFAULT VALUES;
CREATE FUNCTION face_enrollments_truncated() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE face_index_identity SET database_id = gen_random_uuid(); RETURN NULL; END $$;
CREATE TRIGGER face_enrollments_truncated AFTER TRUNCATE ON face_enrollments FOR EACH STATEMENT EXECUTE FUNCTION face_enrollments_truncated();

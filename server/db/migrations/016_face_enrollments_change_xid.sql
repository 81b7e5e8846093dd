-- Incremental loading of the 1:N gallery (server/identity/store/enrollments.ts, loadGallery): the
-- transaction (xid8) that last wrote each enrolled face. A load remembers the oldest transaction
-- still running when it read (pg_snapshot_xmin of its snapshot) and the next load re-reads only the
-- rows written by that transaction or later: every write it could not see, whatever the order in
-- which transactions commit, and whatever their timestamps. Set on insert by the default and on
-- every update by the trigger, whoever writes the row.
ALTER TABLE face_enrollments ADD COLUMN change_xid xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX face_enrollments_change_xid_idx ON face_enrollments (change_xid);
CREATE FUNCTION face_enrollments_change_xid() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.change_xid := pg_current_xact_id(); RETURN NEW; END $$;
CREATE TRIGGER face_enrollments_change_xid BEFORE UPDATE ON face_enrollments FOR EACH ROW EXECUTE FUNCTION face_enrollments_change_xid();

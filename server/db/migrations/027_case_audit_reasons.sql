-- A correction's reason is free text about a patient (issue 42, L1): from now on it is kept only
-- sealed with the correction on the case (purged with it), never in case_audit, which is never
-- purged. The reasons written there before are removed here, once: the rows stay (who corrected
-- which field, when); only `detail.reason` of 'correct' rows goes. The append-only trigger is off
-- for this statement only, inside the migration's transaction (the migration's role owns the table).
ALTER TABLE case_audit DISABLE TRIGGER case_audit_append_only;
UPDATE case_audit SET detail = detail - 'reason' WHERE action = 'correct' AND detail -> 'reason' IS NOT NULL;
ALTER TABLE case_audit ENABLE TRIGGER case_audit_append_only;

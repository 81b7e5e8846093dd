-- 'Mis datos' (issue 45 items 2 and 4-7): the patient's own requests are written to the same
-- append-only log as every way into the account, so 'Quién vio mis datos' and the insight counts
-- read one table. Widened once here for every planned kind so that the areas that write them need
-- no further change to this constraint: a download, the face locked, unlocked or withdrawn, a
-- correction asked, a deletion asked or cancelled, the secondary-use choice changed. 'locked' is
-- the result of a recognition refused because the patient locked their face.
ALTER TABLE patient_access_log DROP CONSTRAINT patient_access_log_kind_check;
ALTER TABLE patient_access_log ADD CONSTRAINT patient_access_log_kind_check CHECK (kind IN (
  'login', 'pin_recovery', 'face_login', 'kiosk', 'my_data',
  'download', 'face_lock', 'face_unlock', 'face_withdraw', 'correction',
  'deletion_request', 'deletion_cancel', 'secondary_use'
));
ALTER TABLE patient_access_log DROP CONSTRAINT patient_access_log_result_check;
ALTER TABLE patient_access_log ADD CONSTRAINT patient_access_log_result_check CHECK (
  result IN ('ok', 'failed', 'locked')
);

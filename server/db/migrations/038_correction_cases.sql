-- 'Corregir' (issue 45 item 5): a registered patient asks, from Mis datos, that one identity field
-- be changed; the request is a case of its own kind ('correction', 'Corrección de datos') that an
-- operator decides. It names the patient (patient_id: no personal data) and which field
-- (correction_field: a field's name, never its value); the patient's current value, the asked
-- value and the reason are sealed on the case as any case's fields and corrections are, and purged
-- with them. One open request per patient and field (two at once: one case).
ALTER TABLE cases DROP CONSTRAINT cases_kind_check;
ALTER TABLE cases ADD CONSTRAINT cases_kind_check CHECK (
  kind IN ('review', 'centro', 'duplicate', 'correction')
);
ALTER TABLE cases ADD COLUMN patient_id bigint REFERENCES patients (id) ON DELETE SET NULL;
ALTER TABLE cases ADD COLUMN correction_field text CHECK (
  correction_field IN ('FullName', 'DocumentNumber', 'DateOfBirth', 'Gender', 'Nationality', 'MaritalStatus')
);
CREATE UNIQUE INDEX cases_one_open_correction_idx ON cases (patient_id, correction_field)
  WHERE status = 'open' AND kind = 'correction';
CREATE INDEX cases_patient_idx ON cases (patient_id, opened_at) WHERE patient_id IS NOT NULL;
CREATE INDEX cases_correction_queue_idx ON cases (opened_at) WHERE status = 'open' AND kind = 'correction';

-- 'Quién vio mis datos' (issue 45 item 3): every way in to a patient's account and every look at
-- their own data, per patient, append-only (the trigger refuses UPDATE and DELETE). Written by
-- server/my-data/access-log.ts only, called by login, PIN recovery, face login (kiosk) and Mis
-- datos. Never a PIN, a code or an image: what happened, when, its result and the kiosk's id. No
-- foreign key: the record outlives what it names (as case_audit does).
CREATE TABLE patient_access_log (
  id bigserial PRIMARY KEY,
  patient_id bigint NOT NULL,
  kind text NOT NULL CHECK (kind IN ('login', 'pin_recovery', 'face_login', 'kiosk', 'my_data')),
  result text NOT NULL CHECK (result IN ('ok', 'failed')),
  -- the kiosk device (kiosk_devices.id) when a kiosk recognised the patient
  device_id bigint,
  at timestamptz NOT NULL
);
CREATE INDEX patient_access_log_patient_idx ON patient_access_log (patient_id, at);
CREATE FUNCTION patient_access_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'patient_access_log is append-only'; END $$;
CREATE TRIGGER patient_access_log_append_only BEFORE UPDATE OR DELETE ON patient_access_log FOR EACH ROW EXECUTE FUNCTION patient_access_log_append_only();

-- 'Eliminar mi cuenta' (issue 45 item 6). A patient asks with their PIN and an SMS code; the
-- deletion waits `due_at` (MY_DATA_DELETION_WAIT_HOURS) so that it can be cancelled, then the job
-- (server/my-data/deletion-job.ts) deletes the account and everything naming the patient in one
-- transaction and marks the row done. At most one pending request per patient. The row outlives
-- the patient (no foreign key): after the deletion it holds an id that names nobody and when.
CREATE TABLE account_deletions (
  id bigserial PRIMARY KEY,
  patient_id bigint NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'cancelled', 'done')),
  requested_at timestamptz NOT NULL,
  due_at timestamptz NOT NULL,
  cancelled_at timestamptz,
  done_at timestamptz
);
CREATE UNIQUE INDEX account_deletions_one_pending ON account_deletions (patient_id)
  WHERE status = 'pending';
CREATE INDEX account_deletions_due ON account_deletions (due_at) WHERE status = 'pending';

-- The SMS code that confirms a deletion has a purpose of its own: a code sent to confirm a
-- deletion is never a registration's or a PIN recovery's code, nor the other way round.
ALTER TABLE otp_codes DROP CONSTRAINT otp_codes_purpose_check;
-- 'face_unlock' is 035's ('Mi rostro'): this list is every purpose, whichever ran first.
ALTER TABLE otp_codes ADD CONSTRAINT otp_codes_purpose_check CHECK (
  purpose IN ('onboarding', 'pin_recovery', 'face_unlock', 'account_deletion')
);

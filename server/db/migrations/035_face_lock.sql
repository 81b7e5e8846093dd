-- 'Mi rostro' (issue 45 item 4). A patient may lock face recognition from Mis datos: while
-- face_locked_at is set, the kiosk and the face-login page answer a recognition of this patient
-- exactly like 'No reconocido' (server/face-login/service.ts reads it FOR SHARE in the decision's
-- transaction; server/my-data/face.ts sets and clears it). Only the PIN and an SMS code with the
-- purpose 'face_unlock' lift it. Withdrawing consent deletes the face_enrollments row and clears it.
ALTER TABLE patients ADD COLUMN face_locked_at timestamptz;
-- Every purpose, 037's 'account_deletion' included: a database that ran 037 before this file
-- (landed later than 037) keeps it, and 037 lists 'face_unlock' too.
ALTER TABLE otp_codes DROP CONSTRAINT otp_codes_purpose_check;
ALTER TABLE otp_codes ADD CONSTRAINT otp_codes_purpose_check CHECK (
  purpose IN ('onboarding', 'pin_recovery', 'face_unlock', 'account_deletion')
);

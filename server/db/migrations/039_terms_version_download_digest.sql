-- Issue 45's remaining gaps (Mis datos).
--
-- Item 1: which version of the terms and of the privacy notice a patient accepted, and when, kept
-- on the patient (durable: the registration's draft that held the acceptance is purged). The
-- version is the server's (contract/terms.ts), written when the PIN step accepts the terms (the
-- draft) and copied to the patient when the registration completes. Patients registered before
-- this migration keep the draft's acceptance time where it is still kept; their version is unknown
-- (NULL), as it always was.
ALTER TABLE registration_drafts ADD COLUMN terms_version text;
ALTER TABLE registration_drafts ADD COLUMN privacy_version text;
ALTER TABLE patients ADD COLUMN terms_accepted_at timestamptz;
ALTER TABLE patients ADD COLUMN terms_version text;
ALTER TABLE patients ADD COLUMN privacy_version text;
UPDATE patients p SET terms_accepted_at = (
  SELECT d.terms_accepted_at FROM registration_drafts d
    JOIN onboarding_registrations r ON r.session_id = d.kyc_session_id
   WHERE r.patient_id = p.id AND d.terms_accepted_at IS NOT NULL
   ORDER BY r.created_at DESC LIMIT 1);

-- Item 2: the download's window reuses a file only while the data it was built from is unchanged:
-- the SHA-256 of that data (server/my-data/download-digest.ts). A row without one (built before
-- this migration) is never reused.
ALTER TABLE my_data_downloads ADD COLUMN digest text;

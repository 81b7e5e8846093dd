-- A KYC session an operator's approval made (issue 42, L4: decider 'operator',
-- createVerifiedSession): the approved identity and face are personal data a case already keeps
-- sealed; the session keeps them sealed too (AES-256-GCM under CASES_KEY, bound to
-- 'kyc:<session id>:result': JSON {id_data, embedding}), with `result` holding only the checks and
-- `selfie_embedding` NULL. Registration opens it (server/onboarding/identity-kyc.ts).
ALTER TABLE kyc_sessions ADD COLUMN sealed_result bytea;

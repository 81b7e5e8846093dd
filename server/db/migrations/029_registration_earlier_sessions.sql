-- The KYC sessions a registration had before its current one (issue 43 item 2): 'Reintentar' after
-- a refusal starts a new session and binds it in place of the old one; a case opened later carries
-- the evidence of those earlier attempts too (server/cases/patient.ts). Newest last, the last 5.
-- Ids only: the evidence stays the sessions' own (sealed, purged with them).
ALTER TABLE registration_drafts ADD COLUMN earlier_kyc_sessions text[] NOT NULL DEFAULT '{}';

-- PIN recovery codes belong to a document AND a mobile (issue 21, item 4): a code is found, counted
-- wrong and superseded only under its own pair, so calls with another document for that mobile
-- never spend it. NULL for onboarding codes (a mobile alone).
ALTER TABLE otp_codes ADD COLUMN numero_documento text;

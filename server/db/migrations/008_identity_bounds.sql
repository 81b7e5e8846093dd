-- Bounded costly work (issue 11 item 9): document attempts counted per KYC session, and an idle
-- timeout per session (a session in liveness or waiting for its documents expires when unused).
ALTER TABLE kyc_sessions ADD COLUMN scan_attempts integer NOT NULL DEFAULT 0;
ALTER TABLE kyc_sessions ADD COLUMN idle_ms integer NOT NULL DEFAULT 600000;

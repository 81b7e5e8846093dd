-- Per-session frame cap (issue 7): the liveness frames a KYC or kiosk session has sent, counted
-- atomically before any analysis (IDENTITY_MAX_FRAMES_PER_SESSION), so one session cannot make the
-- server analyse frames without bound for as long as it stays alive.
ALTER TABLE kyc_sessions ADD COLUMN frames_received integer NOT NULL DEFAULT 0;

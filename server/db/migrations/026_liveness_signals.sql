-- The liveness challenge's signals (issue 31): what a KYC session's frames said about the camera and
-- their timing (a virtual camera's label, frame times going backwards or ahead of the server's clock,
-- frame tags that disagree with the colour schedule), as counts per signal. Signals, never
-- verdicts: kept for a person's review of the session (the case copies them), never refusing.
ALTER TABLE kyc_evidence ADD COLUMN signals jsonb NOT NULL DEFAULT '{}';
-- The case keeps them with the engine's refusals (copied when it opens), for the operator.
ALTER TABLE cases ADD COLUMN engine_signals jsonb NOT NULL DEFAULT '{}';

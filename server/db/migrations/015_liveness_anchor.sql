-- The eye anchor of a liveness session (KYC selfie and kiosk): the grey eye regions of the last frame
-- the face worker analysed (server/identity/worker/analyze.ts, encodeAnchor: a few hundred bytes for
-- the selfie's 160 px frames, a few KB for the kiosk's 480 px ones), handed to the worker with the
-- next request so that its first frame can be skipped as unchanged like any other. Written with the
-- liveness state in the request's transaction, and only when no other request of the session was
-- applied since this one loaded it (else NULL: the next request analyses its first frame). It is a
-- piece of the patient's image: NULL once the session leaves liveness, never logged.
ALTER TABLE kyc_sessions ADD COLUMN eye_anchor bytea;

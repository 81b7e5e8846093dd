-- Replay search (issue 7): per dHash band, the counted frames in time order, so the search reads a
-- bounded number of rows per band (the oldest and the newest of the replay window) whatever the
-- number of band-matching frames stored, then keeps the nearest. Replaces the plain band indexes.
DROP INDEX IF EXISTS liveness_frames_b0_idx;
DROP INDEX IF EXISTS liveness_frames_b1_idx;
DROP INDEX IF EXISTS liveness_frames_b2_idx;
DROP INDEX IF EXISTS liveness_frames_b3_idx;
CREATE INDEX liveness_frames_b0_time_idx ON liveness_frames (b0, created_at) WHERE counted;
CREATE INDEX liveness_frames_b1_time_idx ON liveness_frames (b1, created_at) WHERE counted;
CREATE INDEX liveness_frames_b2_time_idx ON liveness_frames (b2, created_at) WHERE counted;
CREATE INDEX liveness_frames_b3_time_idx ON liveness_frames (b3, created_at) WHERE counted;

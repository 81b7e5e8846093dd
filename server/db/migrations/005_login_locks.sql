-- Timed login locks that grow with repeated locks, and a hard cap of failures without a success
-- (issue 11 items 2-3). locked_until is NULL (open), a time (timed lock) or 'infinity' (only PIN
-- recovery or the operator command lifts it); locked_at is when the current lock began.
ALTER TABLE login_guards ADD COLUMN failures_since_success integer NOT NULL DEFAULT 0;
ALTER TABLE login_guards ADD COLUMN lock_count integer NOT NULL DEFAULT 0;
ALTER TABLE login_guards ADD COLUMN locked_until timestamptz;
-- Locks set before this migration were "until recovery": they become the first timed lock.
UPDATE login_guards
   SET locked_until = locked_at + interval '15 minutes', lock_count = 1,
       failures_since_success = consecutive_failures
 WHERE locked_at IS NOT NULL;

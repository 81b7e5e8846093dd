-- A send whose outcome is unknown (gateway timeout): the code stays valid, the send counts.
ALTER TABLE sms_send_log DROP CONSTRAINT IF EXISTS sms_send_log_status_check;
ALTER TABLE sms_send_log ADD CONSTRAINT sms_send_log_status_check CHECK (status IN ('sent', 'failed', 'unconfirmed'));

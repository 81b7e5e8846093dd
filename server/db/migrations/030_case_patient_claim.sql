-- The patient's claim on a review case (issue 43 item 7): which field read from the card they say
-- is wrong and what it should say. Their words about themselves: sealed on the case, purged with it.
ALTER TABLE cases ADD COLUMN patient_claim bytea;

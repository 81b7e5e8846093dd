-- A rejection's optional note (issue 30) is free text an operator wrote about a patient: kept
-- sealed on the case (purged with its data), never in the append-only audit log, which outlives it.
ALTER TABLE cases ADD COLUMN reject_note bytea;

-- Face authentication has one name in every layer (issue 19): the journey-insight flow 'faceAuth'
-- is now 'faceLogin'; events recorded before the rename follow it, so reports keep their history.
UPDATE insight_events SET flow = 'faceLogin' WHERE flow = 'faceAuth';

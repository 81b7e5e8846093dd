-- Journey insight (issue 17): what the flows (source 'browser') and the identity engine (source
-- 'engine') record of each step, with no personal data by construction: a journey is a random id
-- made in the browser for one flow instance (null for the engine's decisions), never linked to a
-- patient; closed lists of flows, steps, outcomes and codes (checked by the catalogue,
-- contract/insight.ts); coarse context only (mobile or desktop, browser family, network type). No
-- address, no user agent, no free text. Deleted after INSIGHT_RETENTION_DAYS by the server.
CREATE TABLE insight_events (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL,
  source text NOT NULL CHECK (source IN ('browser', 'engine')),
  journey uuid,
  seq integer NOT NULL DEFAULT 0,
  flow text NOT NULL,
  step text NOT NULL,
  outcome text NOT NULL,
  error text,
  duration_ms integer,
  attempt integer,
  device text,
  browser text,
  network text
);
CREATE INDEX insight_events_flow_at ON insight_events (flow, at);
CREATE INDEX insight_events_at ON insight_events (at);

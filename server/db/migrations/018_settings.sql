-- Settings every process of one database must agree on (issue 21, item 11). `pin_pepper_check` is
-- an HMAC of a constant under PIN_PEPPER: an operator command proves it holds the server's pepper
-- before it writes a PIN hash, and a server started with another pepper refuses to start.
CREATE TABLE app_settings (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Patients, login sessions and the login attempt ledger (brute-force protection).
CREATE TABLE patients (
  id bigserial PRIMARY KEY,
  numero_documento text NOT NULL UNIQUE,
  nombre text NOT NULL,
  apellido text NOT NULL,
  celular text,
  email text,
  fecha_nacimiento date,
  sexo text,
  nacionalidad text,
  estado_civil text,
  tipo_sangre text,
  direccion text,
  ciudad_id text,
  pin_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX patients_celular_idx ON patients (celular) WHERE celular IS NOT NULL;

CREATE TABLE sessions (
  id_hash text PRIMARY KEY,
  patient_id bigint NOT NULL REFERENCES patients (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  ended_at timestamptz
);
CREATE INDEX sessions_patient_idx ON sessions (patient_id);

-- One row per failed login, per client address, for the cross-account cap.
CREATE TABLE login_failures (
  id bigserial PRIMARY KEY,
  client_ip text NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failures_ip_idx ON login_failures (client_ip, at);

-- Consecutive failures per document number, known or not, so that an unknown number and a
-- wrong PIN behave the same (delay, lock). Cleared by a successful login or a PIN recovery.
CREATE TABLE login_guards (
  numero_documento text PRIMARY KEY,
  consecutive_failures integer NOT NULL DEFAULT 0,
  last_failure_at timestamptz,
  locked_at timestamptz
);

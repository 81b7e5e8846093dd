-- Departments and districts (cities) of Paraguay with their official codes, seeded at start from
-- server/geo/paraguay-districts.json.
CREATE TABLE departments (
  id text PRIMARY KEY,
  nombre text NOT NULL
);

CREATE TABLE cities (
  id text PRIMARY KEY,
  department_id text NOT NULL REFERENCES departments (id),
  nombre text NOT NULL
);
CREATE INDEX cities_department_idx ON cities (department_id);

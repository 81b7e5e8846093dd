#!/usr/bin/env bash
# Sourced by scripts/test-all.sh: a throwaway PostgreSQL cluster (Debian's postgresql) on a free
# port in a temporary folder, removed on exit. Exports TEST_DATABASE_URL.
# initdb and pg_ctl refuse to run as root: as root they run as the `postgres` user.
PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ]; then
  echo "PostgreSQL server binaries not found under /usr/lib/postgresql (apt-get install postgresql)" >&2
  return 1
fi
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
PG_TMP="$(mktemp -d /tmp/pacientes-pg.XXXXXX)"
[ "$(id -u)" -eq 0 ] && chown postgres:postgres "$PG_TMP"
chmod 700 "$PG_TMP"
pg_test_cluster_stop() {
  as_pg "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$PG_TMP"
  # The tiers after it run on PGlite, not on the address of a stopped cluster.
  unset TEST_DATABASE_URL
}
trap pg_test_cluster_stop EXIT
PG_PORT="$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
as_pg "$PG_BIN/initdb" -D "$PG_TMP/data" -A trust -U postgres --no-sync >/dev/null
as_pg "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -l "$PG_TMP/log" -w \
  -o "-p $PG_PORT -k $PG_TMP -h 127.0.0.1 -c max_connections=300 -c fsync=off -c synchronous_commit=off" \
  start >/dev/null
export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres"
echo "PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on port $PG_PORT ($PG_TMP)"

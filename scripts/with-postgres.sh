#!/usr/bin/env bash
# Run a command against a throwaway PostgreSQL server on 127.0.0.1:${PG_PORT:-5440}.
# The server lives in a temporary directory and is stopped (by its own pid file) on exit.
set -euo pipefail
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$PG_BIN" ]; then
  echo "PostgreSQL server binaries not found (Debian package 'postgresql')" >&2
  exit 3
fi
PG_PORT=${PG_PORT:-5440}
DIR=$(mktemp -d /tmp/thirty-pg.XXXXXX)
as_postgres() {
  if [ "$(id -u)" = 0 ]; then su postgres -s /bin/sh -c "$*"; else sh -c "$*"; fi
}
[ "$(id -u)" = 0 ] && chown postgres "$DIR"
stop() {
  as_postgres "$PG_BIN/pg_ctl -D $DIR -m fast -w stop" >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap stop EXIT
as_postgres "$PG_BIN/initdb -D $DIR -U postgres --auth=trust -E UTF8" >/dev/null
as_postgres "$PG_BIN/pg_ctl -D $DIR -l $DIR/log -o \"-p $PG_PORT -k $DIR -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off\" -w start" >/dev/null
as_postgres "$PG_BIN/createdb -h 127.0.0.1 -p $PG_PORT -U postgres thirty"
export DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/thirty"
"$@"

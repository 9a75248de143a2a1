#!/usr/bin/env bash
# The whole suite, on SQLite and then on a real PostgreSQL server.
#
# Run as root on a machine with apt, it first installs what the suite needs from Debian
# (Chromium for the browser tests, PostgreSQL, gettext, Caddy for the HTTPS path). Otherwise the tests that need a
# missing part are skipped and named with the reason; with THIRTY_STRICT=1 (as in CI) any
# skip fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin

need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1 || need+=(postgresql)
command -v msgfmt >/dev/null || need+=(gettext)
command -v caddy >/dev/null || need+=(caddy)  # the HTTPS path's test (deploy/Caddyfile)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing ${need[*]} from Debian packages"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "Not root with apt: cannot install ${need[*]}; the tests that need them will be skipped."
  fi
fi

if [ -d locale ] && command -v msgfmt >/dev/null; then
  $BIN/python manage.py compilemessages --ignore=.venv -v 0
fi

export DJANGO_ALLOW_ASYNC_UNSAFE=true  # Playwright's sync API runs an event loop
# Let Python cache compiled modules (Makefile): each pytest process, the servers the tests start
# and the second pass then reuse what the first compiled.
unset PYTHONDONTWRITEBYTECODE

echo "== SQLite"
# On every core (pytest-xdist): each worker is its own process with its own test database
# (named after its pid, thirty/settings.py) and its own live server on a port the system
# picks. Work is stolen from a busy worker, since a few tests take far longer than most; the
# order of the tests decides who starts with what (tests/conftest.py, `in_working_order`).
"$BIN/pytest" -q -rs -n "${THIRTY_WORKERS:-auto}" --dist worksteal "$@"

if ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then
  echo "== PostgreSQL"
  # Only what can behave differently on PostgreSQL (tests/conftest.py, README "Testing"): the
  # tests that use the database, and one browser journey per kind of game. The rules
  # (tests/rules) are pure Python, so they are not even collected. On every core as well:
  # each worker has its own test database on the one server (test_thirty_gw0, ...).
  bash scripts/with-postgres.sh "$BIN/pytest" -q -rs -n "${THIRTY_WORKERS:-auto}" \
    --dist worksteal --ignore=tests/rules "$@"
else
  echo "SKIPPED: the PostgreSQL run (no PostgreSQL server installed)"
  [ "${THIRTY_STRICT:-}" = 1 ] && exit 1
fi

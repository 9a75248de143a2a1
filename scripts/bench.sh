#!/usr/bin/env bash
# `make bench`: start the production server on SQLite, then on PostgreSQL, measure each with
# bench/run.py, print one table and write it into docs/benchmarks.md between the results
# markers. Raw figures and server logs go to .bench/. Takes about four minutes.
#
#   bash scripts/bench.sh                    both databases
#   BENCH_DATABASES=sqlite bash scripts/bench.sh
#   BENCH_SERVER=NAME bash scripts/bench.sh  a candidate server of bench/servers.py instead
#                                            (figures in .bench/NAME/, docs left as they are)
#   BENCH_PARTS=robustness bash scripts/bench.sh   only the stress test and the long import
#                                            (bench/robust.py; BENCH_STRESS_SECONDS=20)
#   BENCH_PARTS=cards bash scripts/bench.sh  only the card game: a move early and late in a
#                                            long tournament, and the computer player
#   BENCH_PARTS=dice bash scripts/bench.sh  only the odds solver, the computer's play and the
#                                            game-length estimate (bench/odds.py, no server)
#   BENCH_PARTS=statements bash scripts/bench.sh  only the statements each page sends to the
#                                            database, early and late (bench/statements.py)
#   bash scripts/bench.sh --one LABEL OUT    one run against $DATABASE_URL (used internally)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
OUT=.bench${BENCH_SERVER:+/$BENCH_SERVER}
export DJANGO_SETTINGS_MODULE=thirty.settings
mkdir -p "$OUT"
PARTS=${BENCH_PARTS:-dice,speed,robustness,cards,statements}
export BENCH_PARTS=$PARTS

free_port() {
  "$BIN/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

SERVER_PID=
alive() {  # a process that exists and is not a zombie waiting to be reaped
  [ -r "/proc/$1/stat" ] && [ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)" != Z ]
}

stop_server() {
  local pid=$SERVER_PID
  [ -n "$pid" ] || return 0
  SERVER_PID=
  # The server leads its own process group (setsid): stop the master and its workers.
  kill -TERM -- "-$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do alive "$pid" || break; sleep 0.2; done
  kill -KILL -- "-$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  # Whatever is left in the group (a worker that outlived its master) goes too, by its id.
  for left in $(pgrep -g "$pid" 2>/dev/null || true); do
    kill -KILL "$left" 2>/dev/null || true
  done
}

run_one() {  # LABEL OUT.json, against $DATABASE_URL
  local label=$1 out=$2 port log status=0
  port=$(free_port)
  log="$OUT/server-$(echo "$label" | tr '[:upper:]' '[:lower:]').log"
  trap stop_server EXIT
  local entry=(-m thirty.serve)
  [ -z "${BENCH_SERVER:-}" ] || entry=(bench/servers.py "$BENCH_SERVER")
  setsid env -u THIRTY_PASSWORD -u THIRTY_PASSWORD_FILE DEBUG=false \
    SECRET_KEY="$("$BIN/python" -c 'import secrets; print(secrets.token_urlsafe(40))')" \
    HOST=127.0.0.1 PORT="$port" WEB_WORKERS=2 SITE_URL="http://127.0.0.1:$port" \
    THIRTY_STREAMS_PER_ADDRESS=5000 \
    LOG_LEVEL=WARNING "$BIN/python" "${entry[@]}" >"$log" 2>&1 &
  SERVER_PID=$!
  local ready=
  for _ in $(seq 1 120); do
    if "$BIN/python" -c "import sys, urllib.request as u; sys.exit(0 if u.urlopen('http://127.0.0.1:$port/healthz', timeout=2).read() == b'ok' else 1)" 2>/dev/null; then
      ready=1
      break
    fi
    alive "$SERVER_PID" || break
    sleep 0.5
  done
  if [ -z "$ready" ]; then
    echo "The server did not answer /healthz on port $port; its log:" >&2
    tail -n 30 "$log" >&2
    stop_server
    return 1
  fi
  echo "Server ready on 127.0.0.1:$port (pid $SERVER_PID, 2 workers, $label): $(tr '\0' ' ' <"/proc/$SERVER_PID/cmdline")"
  if [[ ",$PARTS," == *,speed,* ]]; then
    "$BIN/python" bench/run.py measure --port "$port" --db "$label" --out "$out" \
      --server-pid "$SERVER_PID" || status=$?
  fi
  if [[ ",$PARTS," == *,robustness,* ]]; then
    "$BIN/python" bench/run.py robustness --port "$port" --db "$label" \
      --out "${out%.json}-robustness.json" || status=$?
  fi
  stop_server
  trap - EXIT
  return "$status"
}

if [ "${1:-}" = "--one" ]; then
  run_one "$2" "$3"
  exit $?
fi

if [[ ",$PARTS," == *,dice,* ]]; then
  # Pure Python, no server: quick, and first, so a run of only this part needs nothing else.
  echo "==== Dice: the odds solver, the computer's play and the game-length estimate"
  doc=(--doc docs/benchmarks.md)
  [ -z "${BENCH_SERVER:-}" ] || doc=()
  "$BIN/python" bench/odds.py "${doc[@]}" || exit 1
fi
# Only the speed and robustness parts measure a running server.
servers=
[[ ",$PARTS," == *,speed,* || ",$PARTS," == *,robustness,* ]] && servers=1

if [[ ",$PARTS," == *,speed,* ]] && ! command -v wrk >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "Installing wrk from Debian packages"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null ||
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
  else
    echo "wrk is missing (Debian package 'wrk'); install it and run again." >&2
    exit 2
  fi
fi

started=$(date +%s)
echo "make bench: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "Command: bash scripts/bench.sh (BENCH_DATABASES=${BENCH_DATABASES:-sqlite,postgresql}, BENCH_PARTS=$PARTS${BENCH_SERVER:+, BENCH_SERVER=$BENCH_SERVER})"
results=()
robust=()
failed=0
rm -f "$OUT"/sqlite*.json "$OUT"/postgresql*.json

if [ -n "$servers" ] && [[ ",${BENCH_DATABASES:-sqlite,postgresql}," == *,sqlite,* ]]; then
  tmp=$(mktemp -d /tmp/thirty-bench.XXXXXX)
  DATABASE_URL="sqlite:///$tmp/bench.sqlite3" run_one SQLite "$OUT/sqlite.json" || failed=1
  rm -rf "$tmp"
  [ -f "$OUT/sqlite.json" ] && results+=("$OUT/sqlite.json")
  [ -f "$OUT/sqlite-robustness.json" ] && robust+=("$OUT/sqlite-robustness.json")
fi

if [ -n "$servers" ] && [[ ",${BENCH_DATABASES:-sqlite,postgresql}," == *,postgresql,* ]]; then
  if ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then
    PG_PORT=$(free_port) bash scripts/with-postgres.sh \
      bash scripts/bench.sh --one PostgreSQL "$OUT/postgresql.json" || failed=1
    [ -f "$OUT/postgresql.json" ] && results+=("$OUT/postgresql.json")
    [ -f "$OUT/postgresql-robustness.json" ] && robust+=("$OUT/postgresql-robustness.json")
  else
    echo "SKIPPED: PostgreSQL (no server binaries; Debian package 'postgresql')"
  fi
fi

if [ ${#results[@]} -gt 0 ]; then
  echo
  echo "==== Results ($(($(date +%s) - started)) s)"
  doc=(--doc docs/benchmarks.md)
  [ -z "${BENCH_SERVER:-}" ] || doc=()
  "$BIN/python" bench/run.py report "${results[@]}" "${doc[@]}"
fi
if [ ${#robust[@]} -gt 0 ]; then
  echo
  echo "==== Robustness"
  doc=(--doc docs/benchmarks.md)
  [ -z "${BENCH_SERVER:-}" ] || doc=()
  "$BIN/python" bench/run.py robustness-report "${robust[@]}" "${doc[@]}"
fi
into_doc() {  # MARKER: stdin goes between <!-- MARKER --> and <!-- /MARKER --> in the docs
  "$BIN/python" -c '
import re, sys
from pathlib import Path
doc = Path("docs/benchmarks.md")
found = sys.stdin.read().strip()
marker = re.escape(sys.argv[1])
text = doc.read_text()
text = re.sub(rf"(<!-- {marker} -->\n).*?(\n<!-- /{marker} -->)", lambda m: m[1] + found + m[2], text, flags=re.S)
doc.write_text(text)
' "$1"
}

if [[ ",$PARTS," == *,cards,* ]] && [ -z "${BENCH_SERVER:-}" ]; then
  echo
  echo "==== Card game"
  moves=$("$BIN/python" bench/card_moves.py) || failed=1
  bot=$("$BIN/python" bench/cards_bot.py --tournaments 1000) || failed=1
  printf '%s\n\n%s\n' "$moves" "$bot"
  printf '%s\n\n%s\n' "$moves" "$bot" | into_doc cards
fi
if [[ ",$PARTS," == *,statements,* ]] && [ -z "${BENCH_SERVER:-}" ]; then
  # In this process, through Django's test client: no server, a minute at most.
  echo
  echo "==== Statements per page, early and late in a long game"
  tables=$("$BIN/python" bench/statements.py) || failed=1
  if [[ ",${BENCH_DATABASES:-sqlite,postgresql}," == *,postgresql,* ]] &&
    ls -d /usr/lib/postgresql/*/bin >/dev/null 2>&1; then
    on_pg=$(PG_PORT=$(free_port) bash scripts/with-postgres.sh "$BIN/python" bench/statements.py) ||
      failed=1
    tables=$(printf '%s\n\n%s' "$tables" "$on_pg")
  fi
  printf '%s\n' "$tables"
  printf '%s\n' "$tables" | into_doc statements
fi
exit "$failed"

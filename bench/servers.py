"""Candidate production servers, for comparing them with the same benchmark.

    python bench/servers.py NAME

prepares the app as `python -m thirty.serve` does (migrate, collect static files), then
replaces itself with candidate NAME listening on HOST:PORT with WEB_WORKERS processes.
`BENCH_SERVER=NAME bash scripts/bench.sh` measures one; without it the benchmark measures
the production entry point itself.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from thirty.serve import prepare


def candidates(host: str, port: str, workers: str) -> dict[str, list[str]]:
    gunicorn = [
        "-m", "gunicorn", "thirty.wsgi",
        "--bind", f"{host}:{port}",
        "--workers", workers,
        "--worker-tmp-dir", "/dev/shm" if os.path.isdir("/dev/shm") else "/tmp",
        "--control-socket", f"/tmp/thirty-gunicorn-{port}.ctl",
        "--max-requests", "20000",
        "--max-requests-jitter", "2000",
    ]  # fmt: skip
    granian = [
        "-m", "granian", "thirty.wsgi:application",
        "--interface", "wsgi",
        "--host", host,
        "--port", port,
        "--workers", workers,
        "--respawn-failed-workers",
        "--log-level", "warning",
    ]  # fmt: skip
    asgi = [
        "-m", "granian",
        "--interface", "asgi",
        "--host", host,
        "--port", port,
        "--workers", workers,
        "--backpressure", "8192",
        "--respawn-failed-workers",
        "--log-level", "warning",
    ]  # fmt: skip
    return {
        # What production ran before: one request per connection, then a lingering close.
        "gunicorn-sync": gunicorn,
        # Threads, and connections kept alive (a phone polls every second).
        "gunicorn-gthread-2": [*gunicorn, "--worker-class", "gthread", "--threads", "2",
                               "--keep-alive", "30"],
        "gunicorn-gthread-4": [*gunicorn, "--worker-class", "gthread", "--threads", "4",
                               "--keep-alive", "30"],
        # Granian's default backpressure (backlog / workers = 512 connections per worker)
        # counts idle kept-alive connections too: the phone after the 1,024th waits.
        "granian-bt1-default-backpressure": [*granian, "--blocking-threads", "1"],
        # granian-bt1 is what `python -m thirty.serve` ran before the pages were pushed.
        "granian-bt1": [*granian, "--blocking-threads", "1", "--backpressure", "8192"],
        "granian-bt2": [*granian, "--blocking-threads", "2", "--backpressure", "8192"],
        # What `python -m thirty.serve` runs: thirty/asgi.py, streams in Django's ASGI
        # handler and pages through Django's WSGI handler in one thread (a2wsgi).
        "granian-asgi": [*asgi, "thirty.asgi:application"],
        # Everything through Django's ASGI handler: a thread made per request for the
        # sync views (why thirty/asgi.py sends the pages to the WSGI handler instead).
        "granian-asgi-django-only": [*asgi, "bench.django_only_asgi:application"],
    }  # fmt: skip


def main(name: str) -> None:
    host, port = os.getenv("HOST", "127.0.0.1"), os.getenv("PORT", "8000")
    found = candidates(host, port, os.getenv("WEB_WORKERS", "2"))
    if name not in found:
        sys.exit(f"unknown server {name!r}; one of: {', '.join(found)}")
    prepare()
    os.execv(sys.executable, [sys.executable, *found[name]])


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "")

"""The production entry point: migrate, collect static files, then run granian.

`make serve` and the Docker image both start the app this way, so what is measured here is
what is deployed. HOST, PORT and WEB_WORKERS set where it listens and how many processes run.
"""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path

import django
from django.core.management import call_command

DATA_DIR = Path(__file__).resolve().parent.parent / "data"


def ensure_secret_key(data_dir: Path = DATA_DIR) -> None:
    """Give the app a secret key of its own when none is set: made once, kept in
    data/secret_key (readable by its owner only) beside the database, and read from there
    by the settings through SECRET_KEY_FILE. The Docker image keeps it on its data volume."""
    if os.getenv("SECRET_KEY") or os.getenv("SECRET_KEY_FILE"):
        return
    path = data_dir / "secret_key"
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        try:
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another process made it first
        else:
            with os.fdopen(descriptor, "w") as file:
                file.write(secrets.token_urlsafe(50))
    os.environ["SECRET_KEY_FILE"] = str(path)


def prepare() -> None:
    """Bring the database and the static files up to date, before any worker starts."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "thirty.settings")
    ensure_secret_key()
    django.setup()
    call_command("migrate", interactive=False, verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)


def server_command(host: str, port: str, workers: str) -> list[str]:
    """The command line of the HTTP server (granian, serving the WSGI app).

    Why granian and not gunicorn's sync workers: those close every connection after one
    answer and then wait for the client's own close (up to 2 s), so a phone one mobile round
    trip away held a worker for that round trip after every poll (59 polls/s in all, see
    docs/benchmarks.md). Granian keeps connections open for the next poll (30 s when idle)
    and waits for slow networks in its Rust threads, not in Python's.
    """
    return [
        sys.executable,
        "-m",
        "granian",
        "thirty.wsgi:application",
        "--interface",
        "wsgi",
        "--host",
        host,
        "--port",
        port,
        "--workers",
        workers,
        # The views are CPU-bound Python under one GIL per process: one thread per worker
        # (granian's default is hundreds) measured as fast as two, and keeps a worker as
        # simple as a sync worker.
        "--blocking-threads",
        "1",
        # Granian counts every open connection against this, idle kept-alive ones too; its
        # default (512 per worker) would leave the 1,025th phone waiting.
        "--backpressure",
        "8192",
        "--respawn-failed-workers",
    ]


def main() -> None:
    prepare()
    host, port = os.getenv("HOST", "127.0.0.1"), os.getenv("PORT", "8000")
    # One worker process per core of the machine it was measured on (2 cores).
    command = server_command(host, port, os.getenv("WEB_WORKERS", "2"))
    os.execv(command[0], command)


if __name__ == "__main__":
    main()

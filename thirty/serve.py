"""The production entry point: migrate, collect static files, then run granian.

`make serve` and the Docker image both start the app this way, so what is measured here is
what is deployed. HOST, PORT and WEB_WORKERS set where it listens and how many processes run.
"""

from __future__ import annotations

import os
import sys

import django
from django.core.management import call_command


def prepare() -> None:
    """Bring the database and the static files up to date, before any worker starts."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "thirty.settings")
    # Collected here, so the workers may serve names with content hashes (thirty/settings.py).
    os.environ["THIRTY_COLLECTED_STATIC"] = "true"
    django.setup()
    call_command("migrate", interactive=False, verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)


def server_command(host: str, port: str, workers: str) -> list[str]:
    """The command line of the HTTP server (granian, serving the ASGI app of thirty/asgi.py:
    the pages through Django's WSGI handler in one thread per process, the event streams as
    Django async views in the event loop).

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
        "thirty.asgi:application",
        "--interface",
        "asgi",
        "--host",
        host,
        "--port",
        port,
        "--workers",
        workers,
        # Granian counts every open connection against this, idle kept-alive ones and open
        # event streams too; its default (512 per worker) would leave the 1,025th phone
        # waiting.
        "--backpressure",
        "8192",
        "--respawn-failed-workers",
    ]


def announce(host: str, port: str) -> None:
    """Say where to open the app: on a laptop at the table, the address the phones can reach."""
    from django.conf import settings

    from thirty.network import lan_addresses

    if settings.SITE_URL:
        print(f"Thirty is serving {settings.SITE_URL}", flush=True)
    elif host in ("0.0.0.0", "::"):
        for address in lan_addresses() or ("127.0.0.1",):
            print(f"Thirty is serving http://{address}:{port}/ (for phones too)", flush=True)
    else:
        print(f"Thirty is serving http://{host}:{port}/ (this machine only)", flush=True)


def main() -> None:
    prepare()
    host, port = os.getenv("HOST", "127.0.0.1"), os.getenv("PORT", "8000")
    announce(host, port)
    # One worker process per core of the machine it was measured on (2 cores).
    command = server_command(host, port, os.getenv("WEB_WORKERS", "2"))
    os.execv(command[0], command)


if __name__ == "__main__":
    main()

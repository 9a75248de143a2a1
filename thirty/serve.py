"""The production entry point: migrate, collect static files, then run granian.

`make serve` and the Docker image both start the app this way, so what is measured here is
what is deployed. HOST, PORT and WEB_WORKERS set where it listens and how many processes run.
"""

from __future__ import annotations

import os
import socket
import sys

import django
from django.core.management import call_command

from thirty.network import is_loopback


def prepare() -> None:
    """Bring the database and the static files up to date, before any worker starts."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "thirty.settings")
    # Collected here, so the workers may serve names with content hashes (thirty/settings.py).
    os.environ["THIRTY_COLLECTED_STATIC"] = "true"
    django.setup()
    call_command("migrate", interactive=False, verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)


def server_command(
    host: str, port: str, workers: str, tls: tuple[str, str] | None = None
) -> list[str]:
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
        # HTTPS without a proxy, when given a certificate and its key (CERT, KEY): phones
        # then get a secure context (a screen kept awake, copy and share, the offline sheet).
        *(("--ssl-certificate", tls[0], "--ssl-keyfile", tls[1]) if tls else ()),
    ]


def announce(host: str, port: str, scheme: str = "http") -> None:
    """Say where to open the app: on a laptop at the table, the address the phones can reach."""
    from django.conf import settings

    from thirty.network import lan_addresses

    if settings.SITE_URL:
        print(f"Thirty is serving {settings.SITE_URL}", flush=True)
    elif host in ("0.0.0.0", "::"):
        for address in lan_addresses() or ("127.0.0.1",):
            print(f"Thirty is serving {scheme}://{address}:{port}/ (for phones too)", flush=True)
    else:
        print(f"Thirty is serving {scheme}://{host}:{port}/ (this machine only)", flush=True)


def port_in_use(host: str, port: str) -> bool:
    """Whether another server already listens there. Granian binds with SO_REUSEPORT, so a
    second server would start without error and share the port with the first, each taking
    some of the phones: a plain bind, without that option, tells."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, int(port)))
        except OSError:
            return True
    return False


def main() -> None:
    host, port = os.getenv("HOST", "127.0.0.1"), os.getenv("PORT", "8000")
    if port_in_use(host, port):
        sys.exit(
            f"Port {port} is already in use on {host}: another server (perhaps Thirty itself)"
            f" is running there. Stop it, or start this one on another port: PORT=9000 make run"
        )
    cert, key = os.getenv("CERT", ""), os.getenv("KEY", "")
    if bool(cert) != bool(key):
        sys.exit("HTTPS needs both a certificate and its key: CERT=cert.pem KEY=key.pem make run")
    tls = (cert, key) if cert else None
    # Links made on 127.0.0.1 carry the address on the network only if phones can reach it.
    os.environ["THIRTY_LISTENS_ON_LAN"] = "false" if is_loopback(host) else "true"
    prepare()
    announce(host, port, "https" if tls else "http")
    # One worker process per core of the machine it was measured on (2 cores).
    command = server_command(host, port, os.getenv("WEB_WORKERS", "2"), tls)
    os.execv(command[0], command)


if __name__ == "__main__":
    main()

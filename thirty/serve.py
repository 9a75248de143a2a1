"""The production entry point: migrate, collect static files, then run gunicorn.

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
    django.setup()
    call_command("migrate", interactive=False, verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)


def main() -> None:
    prepare()
    bind = f"{os.getenv('HOST', '127.0.0.1')}:{os.getenv('PORT', '8000')}"
    # Two sync workers per two cores measured best; the sheet's work is CPU-bound.
    workers = os.getenv("WEB_WORKERS", "2")
    os.execv(
        sys.executable,
        [
            sys.executable,
            "-m",
            "gunicorn",
            "thirty.wsgi",
            "--bind",
            bind,
            "--workers",
            workers,
            "--worker-tmp-dir",
            "/dev/shm" if os.path.isdir("/dev/shm") else "/tmp",
            "--max-requests",
            "20000",
            "--max-requests-jitter",
            "2000",
        ],
    )


if __name__ == "__main__":
    main()

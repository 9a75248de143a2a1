"""The app's own server in a child process, as the tests of its start-up run it: a free port,
an environment without the test run's own settings, and a wait until `/healthz` answers."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Settings of the test run that a server started from the shell would not have.
TEST_RUN_SETTINGS = ("DEBUG", "SITE_URL", "DATABASE_URL", "SECRET_KEY", "THIRTY_PASSWORD")


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def server_env(extra: Mapping[str, str]) -> dict[str, str]:
    """This process's environment without the test run's own settings, and with `extra`."""
    kept = {key: value for key, value in os.environ.items() if key not in TEST_RUN_SETTINGS}
    return kept | dict(extra)


@contextmanager
def serving(command: list[str], env: Mapping[str, str]) -> Iterator[subprocess.Popen[bytes]]:
    """`command` run from the repository in a process group of its own (make, then granian
    and its workers), stopped as one at the end; its output stays readable after."""
    server = subprocess.Popen(
        command,
        cwd=ROOT,
        env=dict(env),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        yield server
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=20)


def wait_until_healthy(
    server: subprocess.Popen[bytes], status_of: Callable[[str], int], *, seconds: float = 90
) -> None:
    """Until `status_of("/healthz")` is 200; fails with the server's output if it stops
    first, or after `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if status_of("/healthz") == 200:
                return
        except OSError:
            pass  # not listening yet
        assert server.poll() is None, server.stdout.read().decode()  # type: ignore[union-attr]
        assert time.monotonic() < deadline, "the server did not answer /healthz in time"
        time.sleep(0.25)

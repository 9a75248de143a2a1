"""Async test code run in a thread of its own, with its own event loop: a browser test
earlier in the run leaves Playwright's loop running in the main thread, where asgiref's
`async_to_sync` (and Django's test client calling an async view) refuse to run."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from django.db import connections

P = ParamSpec("P")
T = TypeVar("T")


def _closing(function: Callable[[], T]) -> Callable[[], T]:
    """`function`, then the database connections it opened in its thread are closed: left to
    the garbage collector, one may still be open when the test database is dropped."""

    def run() -> T:
        try:
            return function()
        finally:
            connections.close_all()

    return run


def own_loop(function: Callable[P, Coroutine[Any, Any, T]]) -> Callable[P, T]:
    @wraps(function)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        coroutine = function(*args, **kwargs)
        try:
            with ThreadPoolExecutor(1) as pool:
                return pool.submit(_closing(lambda: asyncio.run(coroutine))).result()
        finally:
            # The loop's own pool of threads (sync_to_async for the database) is gone, but the
            # connections its threads opened are only closed once collected: one still open
            # would keep the test database from being dropped.
            gc.collect()

    return run


def own_thread(function: Callable[[], T]) -> T:
    """A plain call in another thread (Django's test client on an async view)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(_closing(function)).result()

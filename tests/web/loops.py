"""Async test code run in a thread of its own, with its own event loop: a browser test
earlier in the run leaves Playwright's loop running in the main thread, where asgiref's
`async_to_sync` (and Django's test client calling an async view) refuse to run."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from functools import wraps
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


def own_loop(function: Callable[P, Coroutine[Any, Any, T]]) -> Callable[P, T]:
    @wraps(function)
    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        with ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, function(*args, **kwargs)).result()

    return run


def own_thread(function: Callable[[], T]) -> T:
    """A plain call in another thread (Django's test client on an async view)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(function).result()

"""The ASGI application the production server runs (granian, see thirty/serve.py).

Two kinds of request share one process and one port:

- the event streams (`/g/<id>/events`, `/api/games/<id>/events`) go to Django's ASGI
  handler, where they are async views: an open stream is a coroutine waiting in the event
  loop, with no thread and no query while nothing happens, so a thousand phones cost
  almost nothing;
- everything else goes to Django's WSGI handler, run in a small thread pool by a2wsgi.
  The pages are sync views, and Django's ASGI handler would run each in a thread of its
  own made for that request and hop between the loop and threads several times per
  request: measured here at a third to a fifth of the WSGI requests per second. Through
  a2wsgi a page costs one hop (docs/benchmarks.md has the figures).
"""

from __future__ import annotations

import os
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from a2wsgi import WSGIMiddleware
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "thirty.settings")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

STREAMS = re.compile(r"^/(?:g|api/games)/[^/]+/events$")
# Python threads per worker process for the sync views: the views are CPU-bound under one
# GIL, so one measured as fast as more (as with granian's WSGI --blocking-threads 1).
PAGE_THREADS = int(os.getenv("WEB_THREADS", "1"))

streams = get_asgi_application()
pages = WSGIMiddleware(get_wsgi_application(), workers=PAGE_THREADS)  # type: ignore[arg-type]


async def application(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    if scope["type"] == "http" and STREAMS.match(scope["path"]):
        await streams(scope, receive, send)  # type: ignore[arg-type]
        return

    async def receive_body() -> Message:
        # a2wsgi hands `receive()` to run_coroutine_threadsafe, which wants a coroutine;
        # granian's receive returns another kind of awaitable.
        return await receive()

    await pages(scope, receive_body, send)  # type: ignore[arg-type]

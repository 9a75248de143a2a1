"""The ASGI application the production server runs (granian, see thirty/serve.py).

Two kinds of request share one process and one port:

- the event streams (`/g/<id>/events`, `/api/games/<id>/events`) go to Django's ASGI
  handler, where they are async views: an open stream is a coroutine waiting in the event
  loop, with no thread and no query while nothing happens, so a thousand phones cost
  almost nothing;
- everything else goes to Django's WSGI handler, run in a small thread pool with one hop
  between the loop and a thread per request (thirty/pages.py). The pages are sync views:
  Django's ASGI handler would run each in a thread made for that request and hop between
  the loop and threads several times, measured here at a third to a fifth of the WSGI
  requests per second; a2wsgi, which streams every answer through the loop, cost about
  three times the CPU of a bare WSGI request. One hop costs about 0.1 ms more than WSGI
  (docs/benchmarks.md has the figures).
"""

from __future__ import annotations

import os
import re

from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

from thirty.limits import STREAMS_PER_ADDRESS, TRUSTED_PROXIES, StreamCount, client_address
from thirty.pages import Receive, Scope, Send, WsgiInThreads, refuse

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "thirty.settings")

STREAMS = re.compile(r"^/(?:g|api/games)/[^/]+/events$")
# Python threads per worker process for the sync views: the views are CPU-bound under one
# GIL, so one measured as fast as more (as with granian's WSGI --blocking-threads 1).
PAGE_THREADS = int(os.getenv("WEB_THREADS", "1"))

streams = get_asgi_application()
pages = WsgiInThreads(get_wsgi_application(), PAGE_THREADS)
open_streams = StreamCount(STREAMS_PER_ADDRESS)


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
        with open_streams.held(_client(scope)) as allowed:
            if not allowed:
                # The page then polls instead (static/thirty.js), as behind a proxy that
                # refuses streams.
                await refuse(send, 429, b"Too many open event streams from this address.")
                return
            await streams(scope, receive, send)  # type: ignore[arg-type]
        return

    await pages(scope, receive, send)


def _client(scope: Scope) -> str:
    remote = (scope.get("client") or ("", 0))[0]
    forwarded = b",".join(v for k, v in scope.get("headers", ()) if k == b"x-forwarded-for")
    return client_address(remote, forwarded.decode("latin-1"), TRUSTED_PROXIES)

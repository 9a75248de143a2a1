"""Django's WSGI handler served from an ASGI server, one thread hop per request.

Each request's body is read in the event loop, the WSGI application runs in a small
thread pool and hands back the whole answer, which the loop then sends. Every answer the
pages give is short and finite (streams never come here: see thirty/asgi.py), so nothing
is lost by not streaming it, and a page costs one hop between the loop and a thread.
"""

from __future__ import annotations

import asyncio
import io
import sys
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from thirty.limits import BODY_SECONDS

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
Wsgi = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
Answer = tuple[int, list[tuple[bytes, bytes]], bytes]


async def refuse(send: Send, status: int, sentence: bytes) -> None:
    """Answer at once with a short plain sentence, before Django sees the request."""
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"connection", b"close")]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": sentence})


class WsgiInThreads:
    def __init__(self, application: Wsgi, threads: int) -> None:
        self.application = application
        self.executor = ThreadPoolExecutor(threads, thread_name_prefix="thirty-pages")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = bytearray()
        try:
            async with asyncio.timeout(BODY_SECONDS):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return
                    body += message.get("body", b"")
                    if not message.get("more_body"):
                        break
        except TimeoutError:
            await refuse(send, 408, b"The request took too long to arrive.")
            return
        environ = wsgi_environ(scope, bytes(body))
        loop = asyncio.get_running_loop()
        status, headers, content = await loop.run_in_executor(self.executor, self.run, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": content})

    def run(self, environ: dict[str, Any]) -> Answer:
        started: list[Any] = []
        chunks: list[bytes] = []

        def start_response(
            status: str, headers: list[tuple[str, str]], exc_info: Any = None
        ) -> Callable[[bytes], None]:
            started[:] = [status, headers]
            return chunks.append

        result = self.application(environ, start_response)
        try:
            chunks.extend(result)
        finally:
            if (close := getattr(result, "close", None)) is not None:
                close()
        status, headers = started
        return (
            int(status[:3]),
            [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers],
            b"".join(chunks),
        )


def wsgi_environ(scope: Scope, body: bytes) -> dict[str, Any]:
    """The WSGI environ of an ASGI HTTP request (PEP 3333; strings in latin-1)."""
    server = scope.get("server") or ("localhost", 80)
    client = scope.get("client") or ("", 0)
    root = scope.get("root_path", "")
    path = scope["path"]
    if root and path.startswith(root):
        path = path[len(root) :]
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": root.encode().decode("latin-1"),
        "PATH_INFO": path.encode().decode("latin-1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_NAME": str(server[0]),
        "SERVER_PORT": str(server[1]),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "REMOTE_ADDR": str(client[0]),
        "REMOTE_PORT": str(client[1]),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    for raw_name, raw_value in scope.get("headers", ()):
        name = raw_name.decode("latin-1").upper().replace("-", "_")
        value = raw_value.decode("latin-1")
        if name not in ("CONTENT_LENGTH", "CONTENT_TYPE"):
            name = "HTTP_" + name
        environ[name] = f"{environ[name]},{value}" if name in environ else value
    # The whole body is here, also when it came in chunks without a length.
    environ["CONTENT_LENGTH"] = str(len(body))
    return environ

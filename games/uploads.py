"""Uploads are kept in memory and refused past the size limit, before they reach the disk.

Django's default handlers write any upload over 2.5 MB to a temporary file first, so a
100 MB file would land in /tmp before the import view could refuse it. The only upload is
an exported game, a few hundred kilobytes at most.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.files.uploadhandler import MemoryFileUploadHandler, StopUpload
from django.http import HttpRequest


def upload_limit() -> int:
    return int(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)


def too_large(request: HttpRequest) -> bool:
    """Whether the request's body was (or says it will be) over the limit."""
    if getattr(request, "upload_too_large", False):
        return True
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    return length > upload_limit() + 64 * 1024  # room for the form's other fields


class LimitedMemoryUploadHandler(MemoryFileUploadHandler):
    """Keeps every upload in memory and stops reading the body past the limit."""

    def handle_raw_input(
        self,
        input_data: Any,
        META: dict[str, Any],
        content_length: int,
        boundary: Any,
        encoding: str | None = None,
    ) -> None:
        # Always in memory: never the temporary file the next handler would write.
        self.activated = True
        self.received = 0

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        self.received += len(raw_data)
        if self.received > upload_limit():
            if self.request is not None:
                self.request.upload_too_large = True  # type: ignore[attr-defined]
            raise StopUpload(connection_reset=True)
        return super().receive_data_chunk(raw_data, start)

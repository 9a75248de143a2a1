"""Logging filters (see LOGGING in thirty/settings.py)."""

from __future__ import annotations

import logging


class WithoutTraceback(logging.Filter):
    """Keeps a record's message and drops its traceback: for refusals that are expected, whose
    message says all there is to say."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        return True

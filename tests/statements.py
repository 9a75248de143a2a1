"""Counting what a request sends to the database, for the tests and `make bench`."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection
from django.test.utils import CaptureQueriesContext


@contextmanager
def count_statements() -> Iterator[list[str]]:
    """Every statement sent to the database, including those that bypass Django's cursor
    (SQLite's driver reports each one; elsewhere Django's own record is complete)."""
    if connection.vendor != "sqlite":
        with CaptureQueriesContext(connection) as queries:
            statements: list[str] = []
            yield statements
        statements.extend(query["sql"] for query in queries.captured_queries)
        return
    connection.ensure_connection()
    seen: list[str] = []
    connection.connection.set_trace_callback(seen.append)
    try:
        yield seen
    finally:
        connection.connection.set_trace_callback(None)

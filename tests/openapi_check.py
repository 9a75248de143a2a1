"""Every answer of the JSON API checked against the OpenAPI document the app serves, as Zulip
checks its own (`validate_against_openapi_schema`): a test client that does it on each call.

The document is generated from the same models that read the requests, so a field the code
adds, renames or drops without its model fails the test that sees it.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import jsonschema_rs
from django.test import Client

from games.api.openapi import openapi_schema


@cache
def _operations() -> list[tuple[re.Pattern[str], str]]:
    """Each documented path as a pattern, with its template, longest first."""
    paths = sorted(openapi_schema()["paths"], key=len, reverse=True)
    return [(re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$"), path) for path in paths]


@cache
def _validator(path: str, method: str, status: int) -> Any:
    document = openapi_schema()
    operation = document["paths"][path][method]
    answers = operation["responses"]
    assert str(status) in answers, f"{method.upper()} {path} does not document {status}"
    schema = answers[str(status)]["content"]["application/json"]["schema"]
    return jsonschema_rs.validator_for(schema | {"components": document["components"]})


def check_answer(method: str, url: str, status: int, body: Any) -> None:
    """Fail unless `body` is what the document promises for `method url` with `status`."""
    path = url.split("?", 1)[0]
    template = next((t for pattern, t in _operations() if pattern.match(path)), None)
    assert template is not None, f"{path} is not in the OpenAPI document"
    errors = [
        f"{'/'.join(map(str, error.instance_path))}: {error.message}"
        for error in _validator(template, method.lower(), status).iter_errors(body)
    ]
    assert not errors, (method, url, status, errors)


class CheckedClient(Client):
    """A test client that checks each answer from /api/ against the OpenAPI document."""

    def request(self, **request: Any) -> Any:
        response = super().request(**request)
        path = request["PATH_INFO"]
        if path.startswith("/api/") and path != "/api/openapi.json":
            check_answer(request["REQUEST_METHOD"], path, response.status_code, response.json())
        return response

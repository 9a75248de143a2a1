"""The JSON API fuzzed against its own OpenAPI schema: no input may cause a server error,
and every refusal carries a sentence."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from thirty.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/openapi.json", application)
# The event stream never ends by itself (tests/web/test_events.py covers it).
operations = schema.exclude(path_regex="/events$")


@pytest.mark.django_db(transaction=True)
@operations.parametrize()
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_makes_the_api_fail(case: schemathesis.Case) -> None:  # type: ignore[type-arg]
    response = case.call()
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert response.json()["error"], (response.status_code, response.text[:200])

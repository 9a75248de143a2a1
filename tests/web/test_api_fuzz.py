"""The JSON API fuzzed against its own OpenAPI schema: no input may cause a server error,
every answer matches the schema, and every refusal carries a sentence."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.specs.openapi.checks import positive_data_acceptance

from tests.budget import examples
from thirty.wsgi import application

schema = schemathesis.openapi.from_wsgi("/api/openapi.json", application)
# The event stream never ends by itself (tests/web/test_events.py covers it).
operations = schema.exclude(path_regex="/events$")


@pytest.mark.django_db(transaction=True)
@operations.parametrize()
@settings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_makes_the_api_fail(case: schemathesis.Case) -> None:  # type: ignore[type-arg]
    # Answers must match the schema (status, content type, body). A schema-valid request
    # may still be refused: the rules (two players with one name, a turn out of order) are
    # more than a schema can say.
    response = case.call_and_validate(excluded_checks=[positive_data_acceptance])
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert response.json()["error"], (response.status_code, response.text[:200])

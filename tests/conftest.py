"""Shared fixtures: personas (host, watcher, stranger) and the strict-skip switch."""

from __future__ import annotations

import gc
import os
import shutil
import subprocess
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from django.template import Template

import tests.budget  # the hypothesis profiles (no deadlines; `dev`), before one is loaded

STRICT = os.getenv("THIRTY_STRICT") == "1"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, Any, None]:
    """Under THIRTY_STRICT=1 (CI) a skipped test is a failed one: CI must run everything."""
    outcome = yield
    report = outcome.get_result()
    if STRICT and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"skipped under THIRTY_STRICT=1: {report.longrepr}"


def pytest_collection_finish(session: pytest.Session) -> None:
    """Once every test module is imported, what is alive lives to the end of the run (modules,
    classes, Django's apps, URL patterns and templates): frozen, the garbage collector no
    longer walks it at every full collection, and it runs less often. A test process of
    `make test-fast` spent 8.9 s of CPU in the collector, 7 % of the run; now 2.7 s
    (measured with `gc.callbacks`). A connection left to the collector may now stay open
    longer: on PostgreSQL the sessions still open at the end are ended before the test
    databases are dropped (`django_db_setup` below), as before."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)


@pytest.fixture
def game(db: None) -> Any:
    from tests.factories import make_game

    return make_game()


@pytest.fixture
def host(client: Any, game: Any) -> Any:
    """A browser that holds the game's host key."""
    from games.access import host_cookie_name

    client.cookies[host_cookie_name(game)] = game.host_key
    return client


@pytest.fixture
def watcher(client: Any) -> Any:
    """A phone that followed the link: it can read but holds no key."""
    return client


@pytest.fixture(autouse=True)
def _english_to_start() -> Generator[None, None, None]:
    """Each test starts in English: a request in Danish leaves its language active in the
    thread (LocaleMiddleware activates it and never deactivates it), which a later test's
    words made outside a request would otherwise be in."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_cache() -> Generator[None, None, None]:
    """Each test starts with no counted wrong guesses (games/guesses.py)."""
    yield
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True, scope="session")
def _own_static_root(tmp_path_factory: pytest.TempPathFactory) -> Generator[None, None, None]:
    """The production servers some tests start (thirty/serve.py) collect the static files
    first: with every worker on the same directory, one worker's middleware read the files
    while another's server rewrote them. So each worker's servers collect into a directory of
    their own (THIRTY_STATIC_ROOT).

    This process's own middleware has another, empty one: WhiteNoise lists every file of its
    root again for each new test client (18.8 ms with the collected files, 0.6 ms without), and
    no test asks this process for a static file (the live server serves them from the
    project's `static/`, as `runserver` does)."""
    from django.test import override_settings

    servers = tmp_path_factory.mktemp("static-collected")
    previous = os.environ.get("THIRTY_STATIC_ROOT")
    os.environ["THIRTY_STATIC_ROOT"] = str(servers)
    with override_settings(STATIC_ROOT=tmp_path_factory.mktemp("static-in-process")):
        yield
    if previous is None:
        del os.environ["THIRTY_STATIC_ROOT"]
    else:
        os.environ["THIRTY_STATIC_ROOT"] = previous


# How a template renders outside tests, taken before Django's test environment replaces it
# (django-stubs leaves out these two private names).
SERVED_RENDER = Template._render  # type: ignore[attr-defined]


@pytest.fixture(autouse=True, scope="session")
def _templates_render_as_served(django_test_environment: None) -> Generator[None, None, None]:
    """Templates render as on the production server. Django's test environment instruments
    every template, include and block it renders, so that a test client's answer can say
    which templates and contexts made it: a signal and a copy of the context each time, which
    cost a fifth of the web tests' CPU (tests/web on two workers: 158 CPU-seconds with it,
    125 without). The browser tests' live servers, which run in this process, paid it too.
    A test that reads `response.templates` or `response.context` asks for `template_records`."""
    from django.test.utils import instrumented_test_render  # type: ignore[attr-defined]

    assert SERVED_RENDER is not instrumented_test_render  # taken before the test environment
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Template, "_render", SERVED_RENDER)
        yield


@pytest.fixture
def template_records(monkeypatch: pytest.MonkeyPatch) -> None:
    """Django's test instrumentation of templates, for a test that reads which templates and
    contexts made an answer (`response.templates`, `response.context`)."""
    from django.test.utils import instrumented_test_render  # type: ignore[attr-defined]

    monkeypatch.setattr(Template, "_render", instrumented_test_render)


@pytest.fixture(autouse=True, scope="session")
def _no_version_listener() -> Generator[None, None, None]:
    """The listener keeps a connection to the test database open, which would stop the test
    database from being dropped; only the tests of it start one, and stop it again."""
    from django.test import override_settings

    with override_settings(THIRTY_VERSION_PUSH=False):
        yield


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> Generator[None, None, None]:
    """At the end, before the test databases are dropped, end the other sessions on
    PostgreSQL's: the threads that served streams keep their connections open
    (`CONN_MAX_AGE`, as a server does between requests), and PostgreSQL will not drop a
    database that a session is using."""
    yield
    from django.db import connections

    with django_db_blocker.unblock():
        for connection in connections.all(initialized_only=True):
            if connection.vendor == "postgresql":
                # A fresh session: this one may be among those a test ended
                # (test_events.py drops every connection but its own).
                connection.close()
                with connection.cursor() as cursor:
                    cursor.execute(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                        " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                    )


# What asks for the test database: a test without one of these (or a `django_db` mark) never
# opens a connection.
DATABASE_FIXTURES = frozenset(
    {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback"}
)


def uses_the_database(item: pytest.Item) -> bool:
    names = getattr(item, "fixturenames", ())
    return item.get_closest_marker("django_db") is not None or not DATABASE_FIXTURES.isdisjoint(
        names
    )


def runs_on_postgresql(item: pytest.Item) -> bool:
    """The PostgreSQL pass of `make test` runs what can behave differently there (README,
    "Testing"): every test that uses the database, and of the browser tests only the journeys
    (`journey`), each in one language, since a language changes the words and not the queries.
    A test that never opens a connection does exactly what it did on the SQLite pass."""
    if item.get_closest_marker("sqlite") is not None or not uses_the_database(item):
        return False
    if item.get_closest_marker("browser") is None:
        return True
    callspec = getattr(item, "callspec", None)
    language = callspec.params.get("language") if callspec is not None else None
    return (
        item.get_closest_marker("journey") is not None and getattr(language, "code", "en") == "en"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked `postgres` run in the PostgreSQL pass of `make test` only, and the
    PostgreSQL pass runs only the tests that can behave differently there. Then the order in
    which the workers take them (below)."""
    if os.getenv("THIRTY_PG_ALL") == "1":  # every test on PostgreSQL, as before the choice
        keep = list(items)
    elif tests.budget.postgresql_pass():
        keep = [item for item in items if runs_on_postgresql(item)]
    else:
        keep = [item for item in items if item.get_closest_marker("postgres") is None]
    if len(keep) != len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in keep])
    workers = getattr(config, "workerinput", {}).get("workercount", 1)
    items[:] = in_working_order(keep, workers)


def in_working_order(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """The order in which the workers take the tests. pytest-xdist (`--dist worksteal`,
    scripts/test.sh) gives each worker an equal part of the list in turn (on two cores, the
    first half and the second); a worker that runs out takes half of what another has left,
    from its end, but never the test it is running nor the one after it.

    So every part opens with its share of the long tests and ends with short ones: a long
    test near the end of a part is left to run alone while the other cores idle (12 s of one
    core at the end of the SQLite pass, when all the long ones opened one part). The tests
    that mostly wait on real time (`waits`: a table's pace, a poll, a phone going quiet)
    open the first part, one after another on one worker: run side by side, two of them
    left both cores idle for seconds. Beside them the other parts open with the long browser
    tests (`slow` and `browser`), which each keep more than one core busy (Chromium, the
    live server and the test). Then every part has its share of the other long ones, the
    browser's others, and as many short ones as fill it; the short ones keep pytest-django's
    order (database tests, then transactional ones, then those without a database)."""

    def rank(item: pytest.Item) -> int:
        marked = {mark.name for mark in item.iter_markers()}
        if "waits" in marked:
            return 0
        if "slow" in marked:
            return 1 if "browser" in marked else 2
        return 3 if "browser" in marked else 4

    ranks: list[list[pytest.Item]] = [[] for _ in range(5)]
    for item in items:  # each rank keeps the order it was given
        ranks[rank(item)].append(item)
    waiting, long_browser, long_other, browser, short = ranks
    count = max(workers, 1)
    # The browser's tests go to the parts without the waits (to the only part on one core).
    beside_waits = list(range(1, count)) or [0]
    parts: list[list[pytest.Item]] = [[] for _ in range(count)]
    parts[0].extend(waiting)
    for group, targets in (
        (long_browser, beside_waits),
        (long_other, list(range(count))),
        (browser, beside_waits),
    ):
        for index, item in enumerate(group):
            parts[targets[index % len(targets)]].append(item)
    # Filled to the sizes pytest-xdist cuts the list into: each worker's share of what is left.
    left = len(items)
    for part, remaining in zip(parts, range(count, 0, -1), strict=True):
        size = left // remaining
        left -= size
        filler = max(0, size - len(part))
        part.extend(short[:filler])
        del short[:filler]
    parts[-1].extend(short)
    return [item for part in parts for item in part]


@pytest.fixture(scope="session")
def compiled_locale(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's catalogues compiled now, so that pages show today's translations
    rather than whatever `.mo` files an earlier build left behind."""
    from django.conf import settings

    locale = Path(settings.BASE_DIR) / "locale"
    if shutil.which("msgfmt") is None:
        if (locale / "da" / "LC_MESSAGES" / "django.mo").exists():
            return locale
        pytest.skip("gettext not installed: apt-get install gettext")
    target = tmp_path_factory.mktemp("locale")
    for po in locale.glob("*/LC_MESSAGES/django.po"):
        mo = target / po.relative_to(locale).with_suffix(".mo")
        mo.parent.mkdir(parents=True)
        subprocess.run(["msgfmt", "--check", "-o", str(mo), str(po)], check=True)
    return target


@pytest.fixture
def current_translations(compiled_locale: Path) -> Generator[None, None, None]:
    """Pages (and the live server, which runs in this process) translate with those."""
    from django.test import override_settings

    with override_settings(LOCALE_PATHS=[compiled_locale]):
        yield

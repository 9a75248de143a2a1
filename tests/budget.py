"""How much each test tries: a property's examples, a Monte Carlo check's turns, a whole
game's length, a stress test's seconds.

`make test` and CI try each full budget, written where it is declared. `make test-fast` loads
the `dev` profile (`--hypothesis-profile=dev`), which tries a tenth of each property: the
same checks, for feedback within a minute. The Monte Carlo checks of the odds and of the
computers (`examples` around their turns or tournaments) play a tenth as well; their bounds
are in standard errors, so they widen by themselves. Where a length or a time is the budget
(`dev_profile`), the card tournament played through the pages goes to two tokens instead of
five, and the stress test's readers and writers hammer one game for one second instead of
three.

A property that plays random games through the store searches the rules, which are plain
Python and the same on both databases: the SQLite pass of `make test` tries its whole budget,
and the PostgreSQL pass the smaller one it names (`on_postgresql`), since every game sends the
same statements, locks and constraints to the database as any other. The API fuzz, whose
requests are what differs, keeps its whole budget there.
"""

from __future__ import annotations

import os

from hypothesis import settings

DEV_SHARE = 10

# No example has a deadline (hypothesis's default is 200 ms): speed is measured in `make bench`,
# never by a test, and an example held up that long on a busy machine (two workers and a
# browser on two cores) would fail the run as "flaky" for nothing it checks.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")
# Properties without a budget of their own try hypothesis's default of 100, so a tenth here.
settings.register_profile(
    "dev", parent=settings.get_profile("suite"), max_examples=100 // DEV_SHARE
)


def postgresql_pass() -> bool:
    """This is the PostgreSQL pass (scripts/with-postgres.sh sets the database's address)."""
    return os.getenv("DATABASE_URL", "").startswith("postgres")


def dev_profile() -> bool:
    """`make test-fast` runs: the `dev` profile is loaded."""
    return settings.get_current_profile_name() == "dev"


def examples(budget: int, *, on_postgresql: int | None = None) -> int:
    """`budget`; or `on_postgresql` in the PostgreSQL pass, where given; or a tenth of either
    (at least one) under the `dev` profile."""
    if on_postgresql is not None and postgresql_pass():
        budget = on_postgresql
    if dev_profile():
        return max(1, budget // DEV_SHARE)
    return budget

"""How many examples each hypothesis property tries.

`make test` and CI try each property's full budget, written where it is declared. `make
test-fast` loads the `dev` profile (`--hypothesis-profile=dev`), which tries a tenth of each:
the same properties, for feedback within a minute.
"""

from __future__ import annotations

from hypothesis import settings

DEV_SHARE = 10

# Properties without a budget of their own try hypothesis's default of 100, so a tenth here.
settings.register_profile("dev", max_examples=100 // DEV_SHARE)


def examples(budget: int) -> int:
    """`budget`, or a tenth of it (at least one) under the `dev` profile."""
    if settings.get_current_profile_name() == "dev":
        return max(1, budget // DEV_SHARE)
    return budget

"""A game of the table's dice rolled before every phone took part in each roll (migration
0028): each roll kept the one part of the phone that asked for it. Migrated, that part is the
roll's only one, and the check page rolls every die again from it as before; a roll of the
server's seed alone keeps no part."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from games.models import hash_key
from games.rules import chance
from games.rules.chance import table_dice
from tests.web.test_table_dice import check

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = ("games", "0026_drop_rolling_and_undone")
SEED = "5eed" * 8
SECRET = "ab" * 32


@pytest.fixture
def old_apps() -> Iterator[Apps]:
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    yield executor.loader.project_state([BEFORE]).apps
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.usefixtures("template_records")  # reads the answer's templates or context
def test_a_roll_made_with_one_part_checks_out_after_the_migration(old_apps: Apps) -> None:
    models = {
        name: old_apps.get_model("games", name)
        for name in ("Game", "Seat", "Secret", "Turn", "TablePart", "TableRoll")
    }
    game = models["Game"].objects.create(
        name="Before every phone",
        rules_data={"preset": "thirty"},
        host_key_hash=hash_key("host"),
        seed_sha256=chance.seed_sha256(SEED),
        table_dice=True,
        finished=True,
        turn_count=2,
    )
    models["Secret"].objects.create(game=game, seed=SEED)
    for position, name in enumerate(["Anna", "Ben"]):
        models["Seat"].objects.create(game=game, position=position, name=name, name_key=name)
    models["TablePart"].objects.create(
        game=game, seat=0, commitment=chance.commitment(SECRET), secret=SECRET
    )
    anna = chance.table_part(SECRET, "v:3")
    for number, part in ((1, anna), (2, "")):  # Anna's roll, then a computer's alone
        dice = table_dice(bytes.fromhex(SEED), bytes.fromhex(part), number, 0, 6)
        models["Turn"].objects.create(
            game=game,
            number=number,
            roller=number - 1,
            total=sum(dice),
            effect="miss",
            rolls=[{"dice": list(dice), "kept": list(dice)}],
            hunt_rolls=[],
            seed_index=0,
        )
        models["TableRoll"].objects.create(
            game=game, number=number, step=0, seat=0 if part else None, label="v:3", part=part
        )
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    page = Client().get(f"/g/{game.pk}/check")
    assert page.status_code == 200
    data = page.context["check_data"]
    assert [roll["parts"] for roll in data["rolls"]] == [[{"seat": 0, "part": anna}], []]
    assert check(data) == 1
    assert page.context["server_only"] == 1
    # Going back keeps the part of the phone that asked.
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    back = executor.loader.project_state([BEFORE]).apps.get_model("games", "TableRoll")
    assert list(back.objects.order_by("number").values_list("part", flat=True)) == [anna, ""]

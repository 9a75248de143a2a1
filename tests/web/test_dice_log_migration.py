"""Games made before the dice games kept a move log (migration 0025): built the old way at
the migration before, with the models of that time, then migrated. Each dice game reads the
same (its sheet, its turn in progress, the turns taken back, on the page and in the API) and
plays on; its log replays to its sheet; a card game made then reads and plays on too."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest
from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.models import F
from django.test import Client

from games import store
from games.kinds.dice import moves as dice_moves
from games.kinds.dice import stored
from games.models import Game, Move, hash_key
from games.rules import chance
from games.rules import dice as dice_rules
from games.rules.cards import ENGINE as CARDS
from games.rules.cards import CardRules
from games.rules.chance import seeded_dice
from games.rules.dice import bot as dice_bot
from games.rules.dice import log
from games.rules.dice.rolled import Action, RolledTurn, act

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = ("games", "0023_wrong_guesses")
SEED = "5eed" * 16


@pytest.fixture
def old_apps() -> Iterator[Apps]:
    """The database at the migration before the log, and its models; migrated to the latest
    when the test hands back (as the test itself does, by calling `migrate_to_latest`)."""
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    yield executor.loader.project_state([BEFORE]).apps
    migrate_to_latest()


def migrate_to_latest() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@dataclass
class OldGame:
    """A dice game written as the store wrote it before the log: rows with their cells and
    running sums, the turn in progress as JSON (`Game.rolling`), undone turns (`Game.undone`)."""

    apps: Apps
    rules: dice_rules.RuleSet
    players: tuple[str, ...]
    position: dice_rules.Position = field(init=False)
    game: Any = field(init=False)
    seats: list[Any] = field(init=False)
    rows: list[tuple[int, dice_rules.Row, Any, Any, int | None, bool]] = field(default_factory=list)

    def __post_init__(self) -> None:
        Game, Seat, Secret = (self.apps.get_model("games", m) for m in ("Game", "Seat", "Secret"))
        self.position = dice_rules.Position.start(self.rules, len(self.players))
        self.game = Game.objects.create(
            name="Before the log",
            rules_data=self.rules.to_dict(),
            host_key_hash=hash_key("host"),
            seed_sha256=chance.seed_sha256(SEED),
        )
        Secret.objects.create(game=self.game, seed=SEED)
        self.seats = [
            Seat.objects.create(game=self.game, position=i, name=name, name_key=name.lower())
            for i, name in enumerate(self.players)
        ]

    def roller(self, number: int) -> Any:
        return lambda step, count: seeded_dice(bytes.fromhex(SEED), number, step, count)

    def typed(self, turn: dice_rules.Turn) -> None:
        self._write(turn)

    def rolled(self, *, by_computer: bool = False) -> None:
        """A turn the app rolled whole, its calls the computer's."""
        turn = RolledTurn(self.position)
        number = len(self.rows) + 1
        while turn.ask() is not None:
            turn = act(turn, dice_bot.rolled_action(turn), self.roller(number))
        self._write(turn.turn(), turn.to_json(), by_computer=by_computer)

    def _write(
        self, turn: dice_rules.Turn, audit: dict[str, Any] | None = None, by_computer: bool = False
    ) -> None:
        Turn, Cell = (self.apps.get_model("games", m) for m in ("Turn", "Cell"))
        row = self.position.play(turn)
        number = len(self.rows) + 1
        rolls, hunt_rolls = (audit["rolls"], audit["hunt_rolls"]) if audit else (None, None)
        seed_index = 0 if audit else None  # the game's own seed: no undo reopened it
        stored = Turn.objects.create(
            game=self.game,
            number=number,
            roller=row.roller,
            effect=row.effect.value,
            victim=row.victim,
            rolls=rolls,
            hunt_rolls=hunt_rolls,
            seed_index=seed_index,
            by_computer=by_computer,
            **asdict(turn),  # total, hunt, target, heal
        )
        for seat, value in zip(self.seats, row.cells, strict=True):
            Cell.objects.create(turn=stored, seat=seat, value=value)
            seat.cell_sum += value
            seat.save()
        self.position = self.position.after(row)
        self.rows.append((number, row, rolls, hunt_rolls, seed_index, by_computer))
        self.game.last_roller = row.roller
        self.game.turn_count = number
        self.game.finished = self.position.finished
        self.game.version += 1
        self.game.save()

    def rolling(self, turn: RolledTurn) -> dict[str, Any]:
        self.game.rolling = turn.to_json()
        self.game.version += 1
        self.game.save()
        return self.game.rolling  # type: ignore[no-any-return]

    def undone(self, *entries: dict[str, Any]) -> list[dict[str, Any]]:
        self.game.undone = list(entries)
        self.game.version += 1
        self.game.save()
        return self.game.undone  # type: ignore[no-any-return]


def taken_back(number: int, roller: int, turn: RolledTurn, when: str) -> dict[str, Any]:
    """An undone entry as the store wrote it (and migration 0014 gave it its seed)."""
    played = turn.turn()
    data = turn.to_json()
    return {
        "number": number,
        "roller": roller,
        "total": played.total,
        "hunt": played.hunt,
        "target": played.target,
        "heal": played.heal,
        "rolls": data["rolls"],
        "hunt_rolls": data["hunt_rolls"],
        "undone_at": when,
        "seed_index": 0,
    }


def fixed(*dice: int) -> Any:
    queue = list(dice)

    def roll(step: int, count: int) -> tuple[int, ...]:
        rolled, queue[:] = queue[:count], queue[count:]
        return tuple(rolled)

    return roll


def sheet_of(game: Game) -> list[tuple[int, dice_rules.Row, Any, Any, int | None, bool]]:
    return [
        (s.number, s.row, s.rolls, s.hunt_rolls, s.seed_index, s.by_computer)
        for s in stored.load_snapshot(game).rows
    ]


def replayed(game: Game) -> log.Replayed:
    """The game replayed from its log alone: every move not taken back, no seed."""
    live = Move.objects.filter(game=game, undone_at__isnull=True).order_by("number")
    start = dice_rules.Position.start(stored.rules_of(game), game.seats.count())
    return log.replay(start, [log.read_move(data) for data in live.values_list("data", flat=True)])


def finish_rolling(game: Game) -> dice_rules.Row:
    """Play the turn in progress on, each call the computer's, until it writes its row."""
    while True:
        game.refresh_from_db()
        turn = stored.rolling_turn(game)
        assert turn is not None
        done = dice_moves.roll(game.pk, dice_bot.rolled_action(turn), version=game.version)
        if (row := dice_moves.row_written(done)) is not None:
            return row


def test_a_thirty_game_reads_the_same_and_plays_on(old_apps: Apps, client: Client) -> None:
    old = OldGame(old_apps, dice_rules.RuleSet(), ("Anna", "Ben", "Cleo"))
    old.typed(dice_rules.Turn(33, 2))
    old.rolled(by_computer=True)
    # Cleo's turn 3 was rolled, then taken back before the undo policy; she typed it again.
    lost = RolledTurn(old.position)
    while lost.ask() is not None:
        lost = act(lost, dice_bot.rolled_action(lost), old.roller(3))
    undone = old.undone(taken_back(3, 2, lost, "2026-11-30T20:15:00+00:00"))
    old.typed(dice_rules.Turn(20))
    # Anna's turn 4 is under way: two steps rolled.
    in_progress = RolledTurn(old.position)
    for action in (Action(), Action(keep=(max(seeded_dice(bytes.fromhex(SEED), 4, 0, 6)),))):
        in_progress = act(in_progress, action, old.roller(4))
    rolling = old.rolling(in_progress)
    rows = list(old.rows)

    migrate_to_latest()
    game = Game.objects.get(pk=old.game.pk)

    assert sheet_of(game) == rows
    assert game.undone_moves == 1
    steps = Move.objects.filter(game=game, row__isnull=True, undone_at__isnull=True)
    assert list(steps.values_list("number", flat=True)) == [5, 6]
    turn = stored.rolling_turn(game)
    assert turn is not None and turn.to_json() == rolling
    assert stored.undone_turns(game) == undone
    # The log: turn 1 typed, turn 2 whole with its rolls, the undone turn 3 before the turn
    # that took its place, then the two steps of the turn in progress.
    moves = list(Move.objects.filter(game=game).order_by("number"))
    assert [m.number for m in moves] == [1, 2, 3, 4, 5, 6]
    assert moves[0].data == {"total": 33, "hunt": 2, "target": None, "heal": False}
    assert moves[0].row == 1
    assert moves[1].data["rolls"] == rows[1][2] and moves[1].row == 2
    assert moves[2].undone_at == datetime(2026, 11, 30, 20, 15, tzinfo=UTC)
    assert moves[2].row == 3 and moves[2].seat == 2
    assert [m.data["roll"] for m in moves[4:]] == [{}, {"keep": [max(rolling["rolls"][0]["dice"])]}]
    assert {m.seat for m in moves[4:]} == {0}
    assert [r.cells for r in replayed(game).rows] == [row.cells for _, row, *_ in rows]
    assert replayed(game).rolling == turn

    # The API and the page show what they showed.
    state = client.get(f"/api/games/{game.pk}").json()
    assert state["turn_in_progress"]["rolls"] == rolling["rolls"]
    assert state["turn_in_progress"]["roller"] == 1
    assert [u["number"] for u in state["undone_turns"]] == [3]
    assert state["undone_turns"][0]["roller"] == 3
    assert state["undone_turns"][0]["undone_at"] == "2026-11-30T20:15:00+00:00"
    assert [t["total"] for t in state["turns"]] == [33, rows[1][1].turn.total, 20]
    page = client.get(f"/g/{game.pk}/").content.decode()
    assert "1 app-rolled turn undone by the host" in page

    # It plays on: the turn in progress is finished, then Ben types his.
    finished = finish_rolling(game)
    game.refresh_from_db()
    assert finished.roller == 0 and stored.rolling_turn(game) is None
    dice_moves.record_turn(game.pk, dice_rules.Turn(24))
    game.refresh_from_db()
    assert game.turn_count == 5 and len(sheet_of(game)) == 5
    again = replayed(game)
    assert [r.cells for r in again.rows] == [s[1].cells for s in sheet_of(game)]
    assert again.rolling is None
    assert stored.undone_turns(game) == undone


def test_a_30s_turn_in_progress_after_its_choices_reads_the_same_and_plays_on(
    old_apps: Apps,
) -> None:
    rules = dice_rules.RuleSet.from_dict(
        {"preset": "30s", "healing": True, "free_for_all": True, "weaker_attacks": True}
    )
    old = OldGame(old_apps, rules, ("Anna", "Ben", "Cleo"))
    old.typed(dice_rules.Turn(24))  # Anna takes 6 points, so she may heal later
    old.typed(dice_rules.Turn(20))
    old.typed(dice_rules.Turn(30))
    # Anna's 35: she attacks Cleo, and her first hunt roll finds two 5s.
    turn = RolledTurn(old.position)
    turn = act(turn, Action(), fixed(6, 6, 6, 6, 6, 5))
    turn = act(turn, Action(keep=(6, 6, 6, 6, 6, 5)), fixed())
    turn = act(turn, Action(heal=False), fixed())
    turn = act(turn, Action(target=2, hunt=True), fixed(5, 5, 1, 2, 3, 4))
    assert turn.ask() is not None and turn.found == 2
    rolling = old.rolling(turn)
    rows = list(old.rows)

    migrate_to_latest()
    game = Game.objects.get(pk=old.game.pk)

    assert sheet_of(game) == rows
    derived = stored.rolling_turn(game)
    assert derived is not None and derived.to_json() == rolling
    steps = Move.objects.filter(game=game, row__isnull=True).order_by("number")
    assert [m.data["roll"] for m in steps] == [
        {},
        {"keep": [6, 6, 6, 6, 6, 5]},
        {"heal": False},
        {"target": 2, "hunt": True},
    ]
    assert stored.undone_turns(game) == []
    finished = finish_rolling(game)
    assert finished.roller == 0 and finished.turn.target == 2
    dice_moves.record_turn(game.pk, dice_rules.Turn(18))
    game.refresh_from_db()
    assert [r.cells for r in replayed(game).rows] == [s[1].cells for s in sheet_of(game)]


def test_a_card_game_made_before_reads_and_plays_on(old_apps: Apps) -> None:
    OldGame_, Seat, Secret, OldMove = (
        old_apps.get_model("games", m) for m in ("Game", "Seat", "Secret", "Move")
    )
    card_rules = CardRules()
    game = OldGame_.objects.create(
        name="Cards before the log",
        kind="cards",
        rules_data=CARDS.write_rules(card_rules),
        host_key_hash=hash_key("host"),
        seed_sha256=chance.seed_sha256(SEED),
    )
    Secret.objects.create(game=game, seed=SEED)
    for position, name in enumerate(("Anna", "Ben", "Cleo")):
        Seat.objects.create(game=game, position=position, name=name, name_key=name.lower())
    state = CARDS.start(card_rules, 3, SEED)
    rng = random.Random(1)
    for number in range(1, 4):
        seat = state.to_move()
        assert seat is not None
        move = CARDS.computer_move(state, seat, rng)
        state, public = state.play(move, seat)
        assert not CARDS.rows(public)  # three cards close no deal
        OldMove.objects.create(game=game, number=number, seat=seat, data=CARDS.write_move(move))
    game.version = 4
    game.save()

    migrate_to_latest()
    now = Game.objects.get(pk=game.pk)

    assert Move.objects.filter(game=now).count() == 3
    assert not Move.objects.filter(game=now, undone_at__isnull=False).exists()
    assert now.undone_moves == 0
    loaded = store.load_state(now)
    assert CARDS.snapshot(loaded) == CARDS.snapshot(state)
    seat = loaded.to_move()
    assert seat is not None
    move = CARDS.computer_move(loaded, seat, rng)
    played = store.play(now.pk, seat, move, version=now.version)
    assert Move.objects.get(game=now, number=4).data == CARDS.write_move(move)
    assert CARDS.snapshot(played.state) == CARDS.snapshot(state.play(move, seat)[0])


@pytest.fixture
def latest() -> Iterator[None]:
    """The database as the app now has it; migrated back to the latest after the test."""
    yield
    migrate_to_latest()


def test_going_back_rebuilds_the_turn_in_progress_and_the_turns_taken_back(latest: None) -> None:
    game, _ = dice_moves.create_game("Going back", ["Anna", "Ben"], dice_rules.RuleSet())
    dice_moves.record_turn(game.pk, dice_rules.Turn(33, 2))
    dice_moves.record_turn(game.pk, dice_rules.Turn(20))
    store.undo(game.pk)  # a typed turn: marked in the log, never listed
    # And a rolled turn taken back before the undo policy, as the log keeps one.
    rolled = Move.objects.create(
        game=game,
        number=Move.objects.filter(game=game).count() + 1,
        seat=0,
        data={
            "total": 31,
            "hunt": 0,
            "target": None,
            "heal": False,
            "rolls": [{"dice": [6, 6, 6, 6, 6, 1], "kept": [6, 6, 6, 6, 6, 1]}],
            "hunt_rolls": [{"dice": [2], "hits": 0}],
            "seed_index": 0,
        },
        row=2,
        undone_at=datetime(2026, 11, 30, 20, 15, tzinfo=UTC),
    )
    Game.objects.filter(pk=game.pk).update(undone_moves=F("undone_moves") + 1)
    dice_moves.roll(game.pk, Action())
    game.refresh_from_db()
    turn = stored.rolling_turn(game)
    assert turn is not None
    undone = stored.undone_turns(game)
    assert [u["number"] for u in undone] == [2]

    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    old = executor.loader.project_state([BEFORE]).apps.get_model("games", "Game").objects
    assert old.get(pk=game.pk).rolling == turn.to_json()
    assert old.get(pk=game.pk).undone == undone
    assert (
        not executor.loader.project_state([BEFORE])
        .apps.get_model("games", "Move")
        .objects.filter(game_id=game.pk)
    )

    migrate_to_latest()
    game = Game.objects.get(pk=game.pk)
    again = stored.rolling_turn(game)
    assert again is not None and again.to_json() == turn.to_json()
    assert stored.undone_turns(game) == undone
    assert rolled.pk not in Move.objects.values_list("pk", flat=True)  # written anew

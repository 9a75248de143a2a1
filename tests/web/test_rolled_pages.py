"""Dice the app rolls, on the pages: rolling and setting aside without scripts, the odds of each
choice once the host shows them, and the last rolled turn shown again to every phone."""

from __future__ import annotations

import re
from datetime import datetime

import pytest
from django.test import Client
from django.utils import timezone

from games import cache, store
from games.access import host_cookie_name
from games.kinds.dice import moves as dice_moves
from games.kinds.dice import stored
from games.models import Game, Move, Secret, Turn
from games.rules import dice as dice_rules
from games.rules.dice.odds import keep_choices
from games.rules.dice.rolled import Action
from tests.factories import make_game, play, rolling
from tests.statements import count_statements
from tests.web.test_seats import ANNA, BEN, seat_phone

pytestmark = pytest.mark.django_db


def host_of(game: Game) -> Client:
    host = Client()
    host.cookies[host_cookie_name(game)] = game.host_key  # type: ignore[attr-defined]
    return host


def last_roll(game: Game) -> list[int]:
    game.refresh_from_db()
    turn = rolling(game)
    assert turn is not None
    dice: list[int] = turn["rolls"][-1]["dice"]
    return dice


def test_a_seat_rolls_and_sets_dice_aside_with_plain_forms() -> None:
    game = make_game()
    anna = seat_phone(game, ANNA)
    assert anna.post(f"/g/{game.pk}/roll", {"act": "roll", "v": game.version}).status_code == 302
    dice = last_roll(game)
    page = anna.get(f"/g/{game.pk}/").content.decode()
    assert page.count('name="keep"') == 6  # one checkbox per die
    highest = dice.index(max(dice))
    answer = anna.post(f"/g/{game.pk}/roll", {"act": "keep", "keep": [highest], "v": game.version})
    assert answer.status_code == 302
    turn = rolling(game)
    assert turn is not None
    assert turn["rolls"][0]["kept"] == [max(dice)]
    assert len(turn["rolls"][1]["dice"]) == 5


def test_each_die_of_a_roll_shows_its_face_in_pips_and_says_it() -> None:
    """The tray draws the dice that fell, in order: each as many pips as its face, named for
    a screen reader; the dice set aside are drawn small beside them."""
    game = make_game()
    anna = seat_phone(game, ANNA)
    anna.post(f"/g/{game.pk}/roll", {"act": "roll", "v": game.version})
    first = last_roll(game)
    anna.post(f"/g/{game.pk}/roll", {"act": "keep", "keep": [0], "v": game.version})
    second = last_roll(game)
    page = anna.get(f"/g/{game.pk}/").content.decode()
    tray = page[page.index('class="dice-tray"') :]
    drawn = re.findall(r'<svg class="die( [a-z ]+)?"[^>]*aria-label="(\d)">(.*?)</svg>', tray)
    rolled = [(int(face), pips) for marks, face, pips in drawn if "rolling" in (marks or "")]
    assert [face for face, _ in rolled] == second
    assert all(pips.count("<circle") == face for face, pips in rolled)
    set_aside = [int(face) for marks, face, _ in drawn if marks == " small"]
    assert set_aside[:1] == [first[0]]


def test_a_watcher_and_the_wrong_seat_cannot_roll() -> None:
    game = make_game()
    assert Client().post(f"/g/{game.pk}/roll", {"act": "roll"}).status_code == 403
    ben = seat_phone(game, BEN)
    refused = ben.post(f"/g/{game.pk}/roll", {"act": "roll", "v": game.version})
    assert refused.status_code == 422 and "not your turn" in refused.content.decode()
    assert rolling(game) is None


def test_a_place_that_is_not_a_die_of_the_last_roll_is_refused() -> None:
    game = make_game()
    host = host_of(game)
    host.post(f"/g/{game.pk}/roll", {"act": "roll", "v": game.version})
    game.refresh_from_db()
    before = game.version
    for keep in (["6"], ["x"], []):
        answer = host.post(f"/g/{game.pk}/roll", {"act": "keep", "keep": keep, "v": before})
        assert answer.status_code == 422
        assert re.search(
            r"Set aside (only dice from the last roll|at least one die)", answer.content.decode()
        )
    game.refresh_from_db()
    assert game.version == before


def test_the_odds_show_only_when_the_host_switches_them_on_and_are_exact() -> None:
    game = make_game()
    host = host_of(game)
    host.post(f"/g/{game.pk}/roll", {"act": "roll", "v": game.version})
    assert "hint-choice" not in host.get(f"/g/{game.pk}/").content.decode()
    assert host.post(f"/g/{game.pk}/hints", {"shown": "on"}).status_code == 302
    page = host.get(f"/g/{game.pk}/").content.decode()
    assert "odds shown" in page  # every phone sees that the odds are shown
    assert "odds shown" in Client().get(f"/g/{game.pk}/").content.decode()
    choices = keep_choices(last_roll(game), 0, 30, "any")
    shown = re.findall(r'name="faces" value="([\d,]+)".*?<strong>(\d+)%</strong>', page, re.S)
    assert shown and len(shown) == min(5, len(choices))
    for (faces, percent), choice in zip(shown, choices, strict=False):
        assert faces == ",".join(map(str, choice.keep))
        assert int(percent) == round(float(choice.p_beat) * 100)
    # One tap on the best choice sets those dice aside.
    game.refresh_from_db()
    host.post(f"/g/{game.pk}/roll", {"faces": shown[0][0], "v": game.version})
    turn = rolling(game)
    assert turn is not None
    assert turn["rolls"][0]["kept"] == list(choices[0].keep)


def test_every_phone_sees_the_computers_turn_again_roll_by_roll() -> None:
    game, _ = dice_moves.create_game("Duel", ["Anna", "Robot"], dice_rules.RuleSet(), computers=[1])
    host = Client()
    dice_moves.record_turn(game.pk, dice_rules.Turn(20))
    robot = Turn.objects.get(roller=1).data
    assert robot["rolls"] is not None
    page = host.get(f"/g/{game.pk}/").content.decode()
    assert "Robot’s turn 2" in page  # the name in the genitive (games.names.possessive)
    # Each roll is one step a phone shows at a table's pace, in the order they fell.
    rolls = re.findall(
        r'recap-roll" data-pace="roll-2-\d+" data-pace-order="(\d+)">(.*?)</div>', page, re.S
    )
    orders = [int(order) for order, _ in rolls]
    assert len(rolls) == len(robot["rolls"]) and orders == sorted(orders)
    first = robot["rolls"][0]["dice"]
    assert re.findall(r'aria-label="(\d)"', rolls[0][1]) == [str(d) for d in first]
    # The total comes after the rolls, then the computer's row of the sheet.
    total = re.search(r'class="recap-total" data-pace="total-2" data-pace-order="(\d+)"', page)
    row = re.search(r'id="turn-2"[^>]*data-pace="row-2" data-pace-order="(\d+)"', page)
    assert total and row and page.index("recap-total") > page.rindex('data-pace="roll-2-')
    assert orders[-1] < int(total[1]) < int(row[1])
    assert f"<strong>{robot['total']}</strong>" in page[page.index("recap-total") :]


def test_a_rolled_turn_stays_and_old_undone_turns_stay_in_the_log() -> None:
    game = make_game()
    host = host_of(game)
    host.post(f"/g/{game.pk}/roll", {"act": "roll", "v": game.version})
    while (turn_so_far := rolling(game := Game.objects.get(pk=game.pk))) is not None:
        dice = turn_so_far["rolls"][-1]["dice"]
        answer = host.post(
            f"/g/{game.pk}/roll", {"act": "keep", "keep": list(range(len(dice))), "v": game.version}
        )
        if answer.status_code != 302:
            host.post(f"/g/{game.pk}/roll", {"act": "hunt", "v": game.version})
    turn = Turn.objects.get()
    rolled = turn.data
    page = host.get(f"/g/{game.pk}/").content.decode()
    assert "Undo last turn" not in page  # a rolled turn offers no undo
    refused = host.post(f"/g/{game.pk}/undo", {"v": game.version})
    assert refused.status_code == 422 and "cannot be taken back" in refused.content.decode()
    assert Turn.objects.get() == turn
    # A game from before the undo policy keeps the rolled turns it took back in its log,
    # marked undone.
    assert rolled["rolls"] is not None
    Move.objects.create(
        game=game,
        number=Move.objects.filter(game=game).count() + 1,
        seat=0,
        data={
            "total": rolled["total"],
            "hunt": rolled["hunt"],
            "target": None,
            "heal": False,
            "rolls": rolled["rolls"],
            "hunt_rolls": rolled["hunt_rolls"],
            "seed_index": None,
        },
        row=1,
        undone_at=timezone.make_aware(datetime(2026, 11, 30, 20, 15)),
    )
    Game.objects.filter(pk=game.pk).update(undone_moves=1, version=game.version + 1)
    page = Client().get(f"/g/{game.pk}/").content.decode()
    assert "1 app-rolled turn undone by the host" in page
    assert f"Turn 1, Anna’s {rolled['total']}, taken back at" in page
    assert " ".join(map(str, rolled["rolls"][0]["dice"])) in page


def test_a_roll_costs_the_same_queries_at_turn_300_as_at_turn_3() -> None:
    def statements_for(turns: int) -> int:
        game = make_game(rules={"start_points": 99})
        play(game, *[dice_rules.Turn(20)] * turns)
        host = host_of(game)
        cache.clear()
        with count_statements() as statements:
            host.post(f"/g/{game.pk}/roll", {"act": "roll", "v": game.version})
            game.refresh_from_db()
            dice = last_roll(game)
            host.post(f"/g/{game.pk}/roll", {"act": "keep", "keep": [0], "v": game.version})
        assert len(dice) == 6
        return len(statements)

    assert statements_for(3) == statements_for(300)


# What a whole game checks is in the page (a button for every step a form offers), which both
# databases serve alike; a roll's statements and locks on PostgreSQL are checked by the test
# above and by the store's tests there. So it is left out of the PostgreSQL pass.
@pytest.mark.slow
@pytest.mark.sqlite
@pytest.mark.parametrize(
    "rule_set",
    [
        {"preset": "30s", "healing": True, "free_for_all": True, "weaker_attacks": True},
        {"preset": "thirty", "start_points": 2, "hunt_dice": "margin", "set_aside": "one"},
    ],
    ids=["30s-every-choice", "thirty-one-at-a-time"],
)
def test_a_whole_game_is_rolled_through_the_page_forms(rule_set: dict[str, object]) -> None:
    """Every step a form offers is a button on the page, and pressing it plays the game on."""
    game = make_game(rules=rule_set, players=["Anna", "Ben"])
    # A fixed seed, so that the dice (and so the steps this game reaches) are the same each run.
    Secret.objects.filter(game=game).update(seed="5eed" * 8)
    host = host_of(game)
    seen: set[str] = set()
    for _ in range(3000):
        game.refresh_from_db()
        if game.finished:
            break
        page = host.get(f"/g/{game.pk}/").content.decode()
        if rolling(game) is None:
            assert 'name="act" value="roll"' in page
            post = {"act": "roll"}
        elif 'name="keep"' in page:
            # The highest die, read from the page as a player reads it.
            faces = [int(face) for face in re.findall(r'aria-label="Set aside a (\d)"', page)]
            post = {"act": "keep", "keep": str(faces.index(max(faces)))}
        elif 'name="target"' in page:
            target = re.search(r'name="target" value="(\d+)"', page)
            assert target is not None
            post = {"target": target.group(1)}
        elif 'value="attack"' in page:
            post = {"act": "attack"}
        elif 'value="stop"' in page:
            post = {"act": "stop" if len(seen) % 2 else "hunt"}
        else:
            assert 'name="act" value="hunt"' in page
            post = {"act": "hunt"}
        seen.add(post.get("act", "target"))
        answer = host.post(f"/g/{game.pk}/roll", post | {"v": str(game.version)})
        assert answer.status_code == 302, answer.content.decode()[:300]
    assert game.finished
    assert not Turn.objects.filter(game=game).exclude(data__has_key="rolls").exists()
    if rule_set["preset"] == "30s":
        assert {"roll", "keep", "target", "hunt"} <= seen


def test_a_typed_in_turn_leaves_no_empty_dice_box() -> None:
    """With no rolled turn to show again, the dice area is empty, so the page hides it."""
    game, _ = dice_moves.create_game("Typed", ["Anna", "Ben"], dice_rules.RuleSet())
    dice_moves.record_turn(game.pk, dice_rules.Turn(20))
    page = Client().get(f"/g/{game.pk}/").content.decode()
    assert '<div id="dice-area" class="dice-area"></div>' in page


def roll_whole_turn(game_id: str) -> None:
    """A turn with app-rolled dice, setting aside the highest die each time."""
    dice_moves.roll(game_id, Action())
    game = Game.objects.get(pk=game_id)
    while (turn := stored.rolling_turn(game)) is not None:
        ask = turn.ask()
        action = Action(keep=(max(turn.rolls[-1].dice),)) if ask == "keep" else Action(hunt=True)
        dice_moves.roll(game_id, action)
        game = Game.objects.get(pk=game_id)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            {
                "first": "Seed 1, shown when the game ended",
                "last": "Seed 2, now that the game is over:",
                "row": "Rolled with seed %s.",
                "recap": "seed 2",
            },
        ),
        (
            "da",
            {
                "first": "Startværdi 1, vist, da spillet sluttede",
                "last": "Startværdi 2, nu hvor spillet er slut:",
                "row": "Slået med startværdi %s.",
                "recap": "startværdi 2",
            },
        ),
    ],
)
def test_a_reopened_game_numbers_its_seeds_and_each_rolled_turn_names_its_own(
    language: str, words: dict[str, str]
) -> None:
    """A checker of a game an undo reopened finds which seed rolled each turn: the seeds are
    numbered where they are shown, and every rolled turn's row and recap name the number."""
    # Six points each: a hunt of six dice that all hit knocks a player out.
    game, _ = dice_moves.create_game("Duel", ["Anna", "Ben"], dice_rules.RuleSet(start_points=6))
    phone = Client(headers={"Accept-Language": language})
    roll_whole_turn(game.pk)  # Anna's turn 1, with the first seed
    if Game.objects.get(pk=game.pk).finished:
        pytest.skip("Anna's first roll ended the game")  # a hunt of six hits: rare
    dice_moves.record_turn(game.pk, dice_rules.Turn(36, 6))  # Ben's typed turn knocks Anna out
    page = phone.get(f"/g/{game.pk}/").content.decode()
    assert words["first"].split(",")[0] not in page  # one seed: no numbers yet
    assert words["row"].split(" %")[0] not in page
    store.undo(game.pk)  # reopened: the first seed is shown, a fresh one rolls on
    roll_whole_turn(game.pk)  # Ben's turn 2, with the second seed
    if Game.objects.get(pk=game.pk).finished:
        pytest.skip("Ben's roll ended the game")
    page = phone.get(f"/g/{game.pk}/").content.decode()
    recap = page[page.index('class="recap') : page.index("recap-total")]
    assert words["recap"] in recap
    dice_moves.record_turn(game.pk, dice_rules.Turn(36, 6))  # Anna's typed turn knocks Ben out
    game.refresh_from_db()
    assert game.finished
    page = " ".join(phone.get(f"/g/{game.pk}/").content.decode().split())
    first, last = game.earlier_seeds[0]["seed"], Secret.objects.get(game=game).seed
    assert f"{words['first']}" in page and f"<code>{first}</code>" in page
    assert f"{words['last']} <code>{last}</code>" in page
    rows = dict(re.findall(r'<tr id="turn-(\d)"[^>]*data-why="([^"]*)"', page))
    assert words["row"] % 1 in rows["1"] and words["row"] % 2 in rows["2"]
    assert "seed" not in rows["3"].lower() and "startværdi" not in rows["3"]  # typed in
    # The replay of turn 2 says it too.
    replay = phone.get(f"/g/{game.pk}/replay?turn=2").content.decode()
    assert words["row"] % 2 in replay

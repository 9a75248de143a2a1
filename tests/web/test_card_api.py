"""The card game through the JSON API, and the leak test: random tournaments played over
HTTP while every kind of viewer looks at every answer the app gives."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from django.test import Client

from games.kinds.cards import tournaments
from games.models import Game, Secret
from games.rules import cards
from tests.budget import examples
from tests.openapi_check import CheckedClient

pytestmark = pytest.mark.django_db


@pytest.fixture
def client() -> Client:
    """Every answer from /api/ is checked against the OpenAPI document."""
    return CheckedClient()


CODE = re.compile(r"\b(?:10|[2-9AJQ])[SHDC]\b|\bX[RB]\b")


def post(client: Client, url: str, body: dict[str, Any], **headers: str) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json", headers=headers)


def new_game(client: Client, players: list[Any], **rules: Any) -> dict[str, Any]:
    response = post(
        client, "/api/games", {"players": players, "rules": {"preset": "cards", **rules}}
    )
    assert response.status_code == 201, response.content
    return response.json()  # type: ignore[no-any-return]


def claim(client: Client, game: dict[str, Any], seat: int) -> str:
    url = f"/api/games/{game['id']}/seats/{seat}/claim"
    response = post(client, url, {}, **{"X-Seat-Key": game["seat_keys"][seat - 1]})
    assert response.status_code == 200, response.content
    return response.json()["seat_key"]  # type: ignore[no-any-return]


def test_create_claim_view_and_play_through_the_api(client: Client) -> None:
    game = new_game(client, ["Anna", {"name": "Robot", "computer": True}, "Cleo"], tokens=2)
    assert game["rules"]["tokens"] == 2 and game["seat_keys"][1] is None
    assert [s["computer"] for s in game["seats"]] == [False, True, False]
    assert game["deal"]["to_move"] == 1 and "hand" not in game and "seed" not in game
    anna, cleo = claim(client, game, 1), claim(client, game, 3)
    # The first key stops working once claimed.
    again = post(
        client, f"/api/games/{game['id']}/seats/1/claim", {}, **{"X-Seat-Key": game["seat_keys"][0]}
    )
    assert again.status_code == 403
    state = client.get(f"/api/games/{game['id']}", headers={"X-Seat-Key": anna}).json()
    assert len(state["hand"]) == 3 and state["seats"][0]["claimed"] is True
    legal = state["legal"]
    assert legal and all(move["card"] in state["hand"] for move in legal)
    # Not a Joker, which would turn play back to Cleo before the computer's turn.
    legal.sort(key=lambda move: move["card"].startswith("X"))
    out_of_turn = post(client, f"/api/games/{game['id']}/moves", legal[0], **{"X-Seat-Key": cleo})
    assert out_of_turn.status_code in (403, 422)
    played = post(
        client,
        f"/api/games/{game['id']}/moves",
        legal[0] | {"version": state["version"]},
        **{"X-Seat-Key": anna},
    )
    assert played.status_code == 201, played.content
    after = played.json()
    # The computer played at once: it is never waited for. (Cleo is next with two cards on
    # the pile, or Anna when the computer's card was a Joker; a deal that ends at once starts
    # a new one with another player.)
    assert after["deal"]["to_move"] in (1, 3)
    if after["deal"]["number"] == 1 and not legal[0]["card"].startswith("X"):
        log = tournaments.load_tournament(Game.objects.get(pk=game["id"])).view(None).log
        computers = [e for e in log if isinstance(e, cards.Played) and e.seat == 1]
        assert len(computers) == 1
        assert after["deal"]["to_move"] == (1 if computers[0].card.startswith("X") else 3)
        assert after["deal"]["pile_count"] == 2
    stale = post(
        client,
        f"/api/games/{game['id']}/moves",
        legal[0] | {"version": state["version"]},
        **{"X-Seat-Key": cleo},
    )
    assert stale.status_code == 409


def test_the_host_key_shows_no_hand_and_reissue_retires_the_old_key(client: Client) -> None:
    game = new_game(client, ["Anna", "Ben"])
    anna = claim(client, game, 1)
    as_host = client.get(f"/api/games/{game['id']}", headers={"X-Host-Key": game["host_key"]})
    assert "hand" not in as_host.json()
    url = f"/api/games/{game['id']}/seats/1/reissue"
    fresh = post(client, url, {}, **{"X-Host-Key": game["host_key"]})
    assert fresh.status_code == 200
    assert client.get(f"/api/games/{game['id']}", headers={"X-Seat-Key": anna}).status_code == 403
    claimed = post(
        client,
        f"/api/games/{game['id']}/seats/1/claim",
        {},
        **{"X-Seat-Key": fresh.json()["seat_key"]},
    )
    assert claimed.status_code == 200


def visible_codes(text: str, *noise: str) -> set[str]:
    """The card codes in `text`, once the random ids and keys in `noise` are taken out: a
    game id or a key such as "AS-Pt6…" in a link would otherwise read as the Ace of Spades."""
    for word in noise:
        text = text.replace(word, " ")
    return set(CODE.findall(text))


def read_with_link(game_id: str, link: str) -> str:
    """Every answer a claim link's key gets, as a cookie and as a header, without claiming."""
    reader = CheckedClient()
    reader.cookies[f"thirty_seat_{game_id}"] = link
    answers = [
        reader.get(f"/g/{game_id}/").content.decode(),
        reader.get(f"/g/{game_id}/live?v=0").content.decode(),
        CheckedClient().get(f"/api/games/{game_id}", headers={"X-Seat-Key": link}).content.decode(),
    ]
    assert not any('id="hand"' in answer or '"hand"' in answer for answer in answers)
    return "\n".join(answers)


# Three tournaments: plain, with the Queens rule and with fewer Jacks; the plain one alone
# under `make test-fast` and in the PostgreSQL pass (tests/budget.py).
@pytest.mark.slow
@pytest.mark.parametrize("seed", range(examples(3, on_postgresql=1)))
def test_no_answer_ever_shows_a_card_of_another_hand(client: Client, seed: int) -> None:
    """Play random tournaments through the API; after every move, look as a watcher, as each
    seat, as the host and with every claim link (unclaimed, used and reissued) at the API, the
    page, the live update and the CSV, and fail on any card that is in a hand other than the
    viewer's own at that moment."""
    rng = random.Random(seed)
    players = ["Anna", "Ben", {"name": "Robot", "computer": True}]
    game = new_game(client, players, tokens=1, queens=seed == 1, fewer_jacks=seed == 2)
    # Claim links are read after every move too: each stays unclaimed until its seat's first
    # turn comes, while every hand holds cards, then used; then one the host reissued, left
    # unclaimed until its seat's next turn.
    links: list[str] = [game["seat_keys"][0], game["seat_keys"][1]]
    unclaimed = {1: links[0], 2: links[1]}
    keys: dict[int, str] = {}
    phones: dict[int | None, Client] = {seat: CheckedClient() for seat in (1, 2)}
    host = CheckedClient()
    host.cookies[f"thirty_host_{game['id']}"] = game["host_key"]
    # The seats look first at each version: the parts of the table every phone shares are
    # then rendered for a seat's answer, and must still hold no hand for the watcher's.
    viewers: dict[int | None, Client] = {**phones, 0: host, None: CheckedClient()}
    row = Game.objects.get(pk=game["id"])
    hands_seen_unclaimed = 0
    for _ in range(200):
        row.refresh_from_db()
        state = tournaments.load_tournament(row)
        hands = {seat: {card.code for card in hand} for seat, hand in enumerate(state.deal.hands)}
        for who, viewer in viewers.items():
            own = hands[who - 1] if who in keys else set()  # 0 is the host: no seat of its own
            hidden = set().union(*(h for s, h in hands.items() if s + 1 != who)) - own
            if who and who not in keys:
                hidden |= hands[who - 1]  # a seat nobody claimed yet shows no hand at all
            if state.finished:
                hidden = set()  # the seed reveals every deal once it is over
            answers = [
                viewer.get(f"/g/{row.pk}/").content.decode(),
                viewer.get(f"/g/{row.pk}/live?v=0").content.decode(),
                viewer.get(f"/g/{row.pk}/sheet.csv").content.decode(),
            ]
            # The host reads with its own key: it shows the host's controls, never a hand.
            headers = {"X-Host-Key": game["host_key"]} if who == 0 else {}
            if who in keys:
                headers = {"X-Seat-Key": keys[who]}
            answers.append(viewer.get(f"/api/games/{row.pk}", headers=headers).content.decode())
            if who is None:
                answers += [read_with_link(row.pk, link) for link in unclaimed.values()]
                hands_seen_unclaimed += len(unclaimed) if not state.finished else 0
            noise = (row.pk, game["host_key"], *links, *keys.values())
            for answer in answers:
                # A card face up on the pile is public even while a hand holds its twin code:
                # no two cards share a code, so a code in another hand is never on the pile.
                leaked = visible_codes(answer, *noise) & hidden
                assert not leaked, (who, leaked)
        if state.finished:
            break
        mover = state.to_move()
        assert mover is not None and mover in (0, 1)
        if mover + 1 not in keys:
            # The seat's turn: its phone claims its link now.
            link = unclaimed.pop(mover + 1)
            keys[mover + 1] = claim(client, {"id": row.pk, "seat_keys": [link] * 2}, mover + 1)
            phones[mover + 1].cookies[f"thirty_seat_{row.pk}"] = keys[mover + 1]
            row.refresh_from_db()
            if len(links) == 2 and len(keys) == 2:
                # Anna's phone is lost: the host gives her seat a new link, which shows
                # nothing until a phone claims it.
                url = f"/api/games/{row.pk}/seats/1/reissue"
                answer = post(client, url, {}, **{"X-Host-Key": game["host_key"]})
                links.append(answer.json()["seat_key"])
                unclaimed[1] = links[-1]
                del keys[1]
                phones[1].cookies.pop(f"thirty_seat_{row.pk}")
                row.refresh_from_db()
                if mover == 0:
                    continue  # read once more while it is unclaimed; Anna claims it then
        move = rng.choice(state.legal_moves())
        response = post(
            client,
            f"/api/games/{row.pk}/moves",
            move.to_dict() | {"version": row.version},
            **{"X-Seat-Key": keys[mover + 1]},
        )
        assert response.status_code == 201, response.content
    assert hands_seen_unclaimed > 0  # links were read while they could still claim a hand


def test_a_move_the_rules_refuse_changes_nothing(client: Client) -> None:
    game = new_game(client, ["Anna", "Ben"])
    anna = claim(client, game, 1)
    state = client.get(f"/api/games/{game['id']}", headers={"X-Seat-Key": anna}).json()
    not_mine = next(code for code in cards.ALL_CODES if code not in state["hand"])
    for body in ({"card": not_mine}, {"card": "ZZ"}, {"card": state["hand"][0], "colour": "green"}):
        response = post(client, f"/api/games/{game['id']}/moves", body, **{"X-Seat-Key": anna})
        assert response.status_code in (400, 422) and response.json()["error"]
    assert Game.objects.get(pk=game["id"]).moves.count() == 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(examples(2, on_postgresql=1)))
def test_no_answer_shows_a_dice_games_seed_before_the_end(client: Client, seed: int) -> None:
    """The dice games' secret is their seed, which would tell every die to come. Through the
    same one path, with the app's dice and a computer seat, look after every step as a
    watcher, as the seat whose turn it is and as the host, at the page, the live update, the
    CSV, the export and the API: the seed shows only once the game is over."""
    rng = random.Random(seed)
    body = {"players": ["Anna", {"name": "Robot", "computer": True}], "rules": {"start_points": 3}}
    game = post(client, "/api/games", body).json()
    secret = Secret.objects.get(game_id=game["id"]).seed
    host = CheckedClient()
    host.cookies[f"thirty_host_{game['id']}"] = game["host_key"]
    anna = CheckedClient()
    anna.cookies[f"thirty_seat_{game['id']}"] = game["seat_keys"][0]
    viewers = {"watcher": CheckedClient(), "host": host, "anna": anna}
    for _ in range(300):
        state = client.get(f"/api/games/{game['id']}").json()
        for who, viewer in viewers.items():
            answers = [
                viewer.get(f"/g/{game['id']}/").content.decode(),
                viewer.get(f"/g/{game['id']}/live?v=0").content.decode(),
                viewer.get(f"/g/{game['id']}/sheet.csv").content.decode(),
                viewer.get(f"/api/games/{game['id']}").content.decode(),
            ]
            if who == "host":
                answers.append(viewer.get(f"/g/{game['id']}/export.json").content.decode())
            shown = any(secret in answer for answer in answers)
            assert shown == state["finished"], (who, state["finished"])
        if state["finished"]:
            break
        asked = (state["turn_in_progress"] or {}).get("ask", "roll")
        step: dict[str, Any] = {"hunt": True}
        if asked == "roll":
            step = {}
        elif asked == "keep":
            dice = state["turn_in_progress"]["rolls"][-1]["dice"]
            step = {"keep": rng.sample(dice, rng.randint(1, len(dice)))}
        answer = post(
            client,
            f"/api/games/{game['id']}/moves",
            step | {"version": state["version"]},
            **{"X-Seat-Key": game["seat_keys"][0]},
        )
        assert answer.status_code == 201, answer.content
    assert state["finished"]

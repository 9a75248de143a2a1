"""A card seat's link can only claim the seat: the host key, an unclaimed link and a reissued
one show no hand; only the key a phone receives when it claims does."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games.models import Seat, seat_key

pytestmark = pytest.mark.django_db


def post(client: Client, url: str, body: dict[str, Any], **headers: str) -> Any:
    return client.post(url, json.dumps(body), content_type="application/json", headers=headers)


def new_card_game(client: Client) -> dict[str, Any]:
    body = {"players": ["Anna", "Ben"], "rules": {"preset": "cards"}}
    response = post(client, "/api/games", body)
    assert response.status_code == 201
    return response.json()  # type: ignore[no-any-return]


def test_an_unclaimed_link_shows_no_hand_and_changes_nothing(client: Client) -> None:
    game = new_card_game(client)
    link = game["seat_keys"][0]
    as_link = client.get(f"/api/games/{game['id']}", headers={"X-Seat-Key": link})
    assert as_link.status_code == 403 and "hand" not in as_link.json()
    phone = Client()
    phone.cookies[f"thirty_seat_{game['id']}"] = link
    page = phone.get(f"/g/{game['id']}/").content.decode()
    assert 'id="hand"' not in page
    state = client.get(f"/api/games/{game['id']}").json()
    assert state["version"] == game["version"] and not state["seats"][0]["claimed"]


def test_the_host_key_derives_no_link_and_shows_no_hand(client: Client) -> None:
    game = new_card_game(client)
    derived = seat_key(game["host_key"], game["id"], 0)
    assert derived not in game["seat_keys"]  # links are random, not derived from the host key
    url = f"/api/games/{game['id']}/seats/1/claim"
    assert post(client, url, {}, **{"X-Seat-Key": derived}).status_code == 403
    as_host = client.get(f"/api/games/{game['id']}", headers={"X-Host-Key": game["host_key"]})
    assert as_host.status_code == 200 and "hand" not in as_host.json()
    host = Client()
    host.cookies[f"thirty_host_{game['id']}"] = game["host_key"]
    assert 'id="hand"' not in host.get(f"/g/{game['id']}/").content.decode()
    # The host's page shows the same random link again, from its own key alone.
    assert (
        f"/g/{game['id']}/seat#{game['seat_keys'][0]}"
        in host.get(f"/g/{game['id']}/").content.decode()
    )


def test_only_the_claimed_key_shows_the_hand_and_links_are_stored_hashed(client: Client) -> None:
    game = new_card_game(client)
    link = game["seat_keys"][0]
    claimed = post(
        client, f"/api/games/{game['id']}/seats/1/claim", {}, **{"X-Seat-Key": link}
    ).json()["seat_key"]
    assert claimed != link
    mine = client.get(f"/api/games/{game['id']}", headers={"X-Seat-Key": claimed}).json()
    assert len(mine["hand"]) == 3
    row = Seat.objects.get(game_id=game["id"], position=0)
    stored = " ".join(
        str(value) for value in Seat.objects.filter(pk=row.pk).values().get().values()
    )
    assert link not in stored and claimed not in stored  # only hashes and a sealed copy


def test_a_reissued_link_shows_no_hand_until_claimed(client: Client) -> None:
    game = new_card_game(client)
    first = post(
        client, f"/api/games/{game['id']}/seats/1/claim", {}, **{"X-Seat-Key": game["seat_keys"][0]}
    ).json()["seat_key"]
    url = f"/api/games/{game['id']}/seats/1/reissue"
    reissued = post(client, url, {}, **{"X-Host-Key": game["host_key"]})
    assert reissued.status_code == 200
    fresh = reissued.json()["seat_key"]
    assert fresh != seat_key(game["host_key"], game["id"], 0, 1)
    for key in (first, fresh):
        answer = client.get(f"/api/games/{game['id']}", headers={"X-Seat-Key": key})
        assert answer.status_code == 403 and "hand" not in answer.json()


def test_a_second_phone_on_a_claimed_link_is_told_the_seat_is_taken(client: Client) -> None:
    game = new_card_game(client)
    link = game["seat_keys"][1]
    first, second = Client(), Client()
    assert first.post(f"/g/{game['id']}/seat", {"key": link}).status_code == 302
    refused = second.post(f"/g/{game['id']}/seat", {"key": link})
    page = refused.content.decode()
    assert refused.status_code == 403 and 'id="seat-taken"' in page
    assert 'name="key"' not in page  # no key box to type into


def test_answers_that_carry_a_key_or_a_hand_are_never_cached(client: Client) -> None:
    created = post(client, "/api/games", {"players": ["Anna", "Ben"], "rules": {"preset": "cards"}})
    assert "no-store" in created["Cache-Control"]
    game = created.json()
    answer = client.get(f"/api/games/{game['id']}", headers={"X-Host-Key": game["host_key"]})
    assert "no-store" in answer["Cache-Control"]
    assert {"x-host-key", "x-seat-key"} <= {v.strip().lower() for v in answer["Vary"].split(",")}
    plain = client.get(f"/api/games/{game['id']}")
    assert "no-store" not in plain.get("Cache-Control", "")

"""The card game behind the store's engine protocol (`games.rules.engine.Engine`): the rules
and moves read from dicts, the tournament started from a seed, the sheet row each finished deal
writes, and the computer's card."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ..engine import Chance, SheetRow
from ..errors import gettext_noop
from .bot import choose_move
from .deck import CardRules
from .game import NO_LEGAL_PLAY, DealRecord, Move, Tournament, from_snapshot, snapshot

# How a deal's row is labelled on the sheet: lost by a player with no legal play, or ended by
# the single stock running out (everyone still in gave up a token).
DEAL_ROW, STOCK_ROW = "deal", "stock"


class CardEngine:
    name = "cards"

    def read_rules(self, data: Mapping[str, Any]) -> CardRules:
        return CardRules.from_dict(data)

    def write_rules(self, rules: CardRules) -> dict[str, Any]:
        return rules.to_dict()

    def start(self, rules: CardRules, seats: int, seed: str) -> Tournament:
        return Tournament.start(rules, seats, seed)

    def read_move(self, data: Mapping[str, Any]) -> Move:
        return Move.from_dict(data)

    def write_move(self, move: Move) -> dict[str, Any]:
        return move.to_dict()

    def rows(self, public: Sequence[object]) -> list[SheetRow]:
        return [
            SheetRow(
                event.number,
                event.losers[0],
                event.cells,
                DEAL_ROW if event.reason == NO_LEGAL_PLAY else STOCK_ROW,
            )
            for event in public
            if isinstance(event, DealRecord)
        ]

    def computer_move(self, state: Tournament, seat: int, rng: random.Random) -> Move:
        return choose_move(state.view(seat), rng)

    def with_chance(self, state: Tournament, move: Move, chance: Chance) -> Move:
        return move  # the deals and restocks come from the seed the tournament holds

    def take_back_refusal(self, move: Move, by_computer: bool) -> str | None:
        return gettext_noop("A card played face up cannot be taken back.")

    def row_title(self, data: Mapping[str, Any]) -> str:
        return ""

    def snapshot(self, state: Tournament) -> dict[str, Any]:
        return snapshot(state)

    def from_snapshot(self, data: Mapping[str, Any]) -> Tournament:
        return from_snapshot(data)


ENGINE = CardEngine()

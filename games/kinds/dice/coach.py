"""Luck and skill after a dice game, in words: for every turn whose rolls are known (the app
rolled them, or they were thrown at the table and entered), what each player's choices gave
away against the best play and how the dice ran (`games.rules.dice.analysis`), each player's
biggest miss, and what each set-aside could have been ("what if"), for the row's explanation.

A row keeps its analysis from when it was written (`Turn.data["analysis"]`); a row written
before rows kept one is analysed from the position it was rolled in, the game replayed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Exists, OuterRef
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.charts import render_over_games
from games.kinds.dice.moves import KIND
from games.kinds.dice.stored import Snapshot
from games.models import Seat, Turn
from games.names import possessive
from games.rules.dice import Position
from games.rules.dice.analysis import analyse
from games.rules.dice.rolled import read_rolls

BEAT, POINTS = "beat", "points"


def analyses(snapshot: Snapshot) -> dict[int, dict[str, Any]]:
    """Each analysed row's analysis by row number: kept with the row, or worked out from the
    position the turn was rolled in."""
    found: dict[int, dict[str, Any]] = {}
    position = Position.start(snapshot.rules, len(snapshot.names))
    for stored in snapshot.rows:
        if stored.analysis is not None:
            found[stored.number] = stored.analysis
        elif stored.rolls is not None:
            found[stored.number] = analyse(position, read_rolls(stored.rolls)).to_json()
        position = position.after(stored.row)
    return found


@dataclass
class PlayerCoaching:
    name: str
    objective: str
    turns: int = 0
    lost: float = 0.0
    luck: float = 0.0
    worst: tuple[float, int, Mapping[str, Any]] | None = None  # (lost, row, decision)

    @property
    def said(self) -> str:
        """What this player's choices gave away and how the dice ran, in one sentence."""
        values = {
            "whose": possessive(self.name),
            "lost": amount(self.lost, self.objective),
            "luck": signed(self.luck, self.objective),
            "turns": self.turns,
        }
        return (
            ngettext(
                "%(whose)s choices gave away %(lost)s over %(turns)s turn; the dice ran %(luck)s"
                " against average rolls.",
                "%(whose)s choices gave away %(lost)s over %(turns)s turns; the dice ran %(luck)s"
                " against average rolls.",
                self.turns,
            )
            % values
        )

    @property
    def biggest_miss(self) -> str | None:
        if self.worst is None:
            return None
        lost, row, decision = self.worst
        return _(
            "Biggest miss: turn %(turn)s, keeping %(chosen)s, not %(best)s, gave away %(lost)s."
        ) % {
            "turn": row,
            "chosen": faces(decision["chosen"]),
            "best": faces(decision["best"]),
            "lost": amount(lost, self.objective),
        }

    @property
    def worst_turn(self) -> int | None:
        return None if self.worst is None else self.worst[1]


@dataclass(frozen=True)
class Coaching:
    objective: str
    players: tuple[PlayerCoaching, ...] = field(default_factory=tuple)

    @property
    def measured(self) -> str:
        if self.objective == BEAT:
            return _(
                "Measured against the best play for the chance of a successful turn (beating"
                " the target), as the computer plays."
            )
        return _(
            "Measured in expected points against the best play for them (points given to"
            " others, less those scored against oneself), as the computer plays."
        )


def coaching(snapshot: Snapshot) -> Coaching | None:
    """Each player's figures over the game's analysed turns; None when no turn's rolls are
    known (every turn typed in from its total)."""
    found = analyses(snapshot)
    if not found:
        return None
    objective = next(iter(found.values()))["objective"]
    players = [PlayerCoaching(name, objective) for name in snapshot.names]
    for stored in snapshot.rows:
        judged = found.get(stored.number)
        if judged is None or stored.by_computer:
            continue  # a computer's choices are the measure itself
        player = players[stored.row.roller]
        player.turns += 1
        player.lost += judged["lost"]
        player.luck += judged["luck"]
        for decision in judged["decisions"]:
            lost = decision["best_value"] - decision["chosen_value"]
            if lost > 1e-9 and (player.worst is None or lost > player.worst[0]):
                player.worst = (lost, stored.number, decision)
    return Coaching(objective, tuple(player for player in players if player.turns))


def what_if(judged: Mapping[str, Any] | None) -> str:
    """Each set-aside of a turn beside the best one, with what each was worth: for the row's
    explanation, where a tap on the row shows it."""
    if not judged:
        return ""
    objective = judged["objective"]
    parts = []
    for decision in judged["decisions"]:
        chosen, best = decision["chosen"], decision["best"]
        worth = {"kept": faces(chosen), "value": value(decision["chosen_value"], objective)}
        if sorted(chosen) == sorted(best) or decision["best_value"] <= decision["chosen_value"]:
            parts.append(_("kept %(kept)s (%(value)s, the best)") % worth)
        else:
            best_worth = {
                "best": faces(best),
                "best_value": value(decision["best_value"], objective),
            }
            parts.append(
                _("kept %(kept)s (%(value)s; best %(best)s, %(best_value)s)") % (worth | best_worth)
            )
    return _("What if: %(choices)s.") % {"choices": " · ".join(parts)}


def faces(dice: Sequence[int]) -> str:
    return " ".join(str(face) for face in dice)


def value(worth: float, objective: str) -> str:
    """A position's worth: a chance in per cent, or expected points."""
    if objective == BEAT:
        return f"{round(worth * 100)} %"
    return _("%(points)s points") % {"points": number_format(worth, 1)}


def amount(lost: float, objective: str) -> str:
    """What was given away: of a successful turn (a chance), or points."""
    if objective == BEAT:
        if lost < 0.1:
            return f"{round(lost * 100)} %"
        if lost < 1:
            return _("%(share)s of a successful turn") % {"share": number_format(lost, 2)}
        return _("%(share)s successful turns") % {"share": number_format(lost, 2)}
    return _("%(points)s points") % {"points": number_format(lost, 1)}


def signed(luck: float, objective: str) -> str:
    sign = "+" if luck >= 0 else "−"
    if objective == BEAT:
        share = {"sign": sign, "share": number_format(abs(luck), 2)}
        if abs(luck) < 1:
            return _("%(sign)s%(share)s of a successful turn") % share
        return _("%(sign)s%(share)s successful turns") % share
    return _("%(sign)s%(points)s points") % {"sign": sign, "points": number_format(abs(luck), 1)}


@dataclass(frozen=True)
class GameFigures:
    """One player's figures in one game, for their page's chart over time."""

    game_id: str
    created_at: datetime
    objective: str
    turns: int
    lost: float
    luck: float


def player_figures(key: str) -> list[GameFigures]:
    """A player's skill and luck in every dice game they rolled analysed turns in, oldest
    first, from the analyses the rows keep (one query)."""
    rolled_by_them = Exists(
        Seat.objects.filter(game=OuterRef("game"), position=OuterRef("roller"), name_key=key)
    )
    rows = (
        Turn.objects.filter(
            rolled_by_them,
            game__kind=KIND,
            game__deleted_at__isnull=True,
            data__has_key="analysis",
            by_computer=False,
        )
        .order_by("game__created_at", "game_id", "number")
        .values_list("game_id", "game__created_at", "data")
    )
    figures: dict[str, GameFigures] = {}
    for game_id, created_at, data in rows:
        judged = data["analysis"]
        known = figures.get(game_id)
        figures[game_id] = GameFigures(
            game_id,
            created_at,
            judged["objective"],
            (known.turns if known else 0) + 1,
            (known.lost if known else 0.0) + judged["lost"],
            (known.luck if known else 0.0) + judged["luck"],
        )
    return list(figures.values())


@dataclass(frozen=True)
class PlayerSummary:
    """A player's luck and skill over their dice games, for one objective."""

    objective: str
    games: int
    turns: int
    lost: float
    luck: float

    @property
    def said(self) -> str:
        values = {
            "games": self.games,
            "lost": amount(self.lost, self.objective),
            "luck": signed(self.luck, self.objective),
        }
        return (
            ngettext(
                "Over %(games)s game: choices gave away %(lost)s, and the dice ran %(luck)s against"
                " average rolls.",
                "Over %(games)s games: choices gave away %(lost)s, and the dice ran %(luck)s"
                " against average rolls.",
                self.games,
            )
            % values
        )


def player_summaries(figures: Sequence[GameFigures]) -> list[PlayerSummary]:
    """The totals of a player's games, one per objective they were measured by."""
    summaries = []
    for objective in (BEAT, POINTS):
        mine = [f for f in figures if f.objective == objective]
        if mine:
            summaries.append(
                PlayerSummary(
                    objective,
                    len(mine),
                    sum(f.turns for f in mine),
                    sum(f.lost for f in mine),
                    sum(f.luck for f in mine),
                )
            )
    return summaries


def render_coaching(figures: Sequence[GameFigures], objective: str, size: str) -> str:
    """Game by game, what a player's choices gave away and how the dice ran, as an SVG."""
    mine = [f for f in figures if f.objective == objective]
    unit = _("successful turns") if objective == BEAT else _("points")
    digits = 2 if objective == BEAT else 1
    return render_over_games(
        [
            (_("Given away by choices"), [round(f.lost, digits) for f in mine]),
            (_("Luck of the dice"), [round(f.luck, digits) for f in mine]),
        ],
        size,
        y_title=unit,
        x_title=_("Games with rolls known"),
        no_data=_("No turns with known rolls yet"),
    )

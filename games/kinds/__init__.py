"""The kinds of game, in one table: everything generic code needs of a kind, asked of the
kind by name (`find_kind(game.kind)`), in the manner of python-chess's `find_variant` and
healthchecks' `TRANSPORTS`. Generic code never names a kind.

Each kind is a package beside this one (`games.kinds.dice`, `games.kinds.cards`) that holds
what belongs to it alone on the web, over its engine in `games.rules`. Adding a kind means a
package there, one in `games.rules`, and one line in the setting `THIRTY_KINDS`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import pydantic
from django import forms as django_forms
from django.conf import settings
from django.utils.functional import Promise
from django.utils.module_loading import import_string

from games.models import Game
from games.rules.engine import Engine

if TYPE_CHECKING:
    from django.http import HttpResponse, QueryDict
    from django.urls import URLPattern

    from games.access import Access
    from games.api.openapi import Operation
    from games.page_stream import Mark, Update
    from games.web.common import HtmxHttpRequest


@dataclass(frozen=True)
class Standing:
    """Where a game stands, from the sums of its sheet's cells alone: whether it is over and
    who won (seats from 0)."""

    finished: bool
    winners: tuple[int, ...]


@dataclass(frozen=True)
class RulesSection:
    """One game's section of the rules page."""

    anchor: str  # the section's id on the page, for links like /rules/#thirty
    title: str | Promise
    template: str


@dataclass(frozen=True)
class Refusal:
    """Why a kind does not offer an operation: the status and the sentence (to translate)."""

    status: int
    sentence: str


# The operations a kind may lack (`Kind.refuses`).
TYPED_TURN, ROLL, UNDO, CARD, CLAIM = "typed_turn", "roll", "undo", "card", "claim"
EXPORT = "export"  # the game file (JSON) that imports again


class Pages(Protocol):
    """The regions of a kind's pages, which the generic page views (`games.web`) fill in."""

    not_yours: str  # the sentence (to translate) for a watcher's phone that posts a move

    def page(self, request: HtmxHttpRequest, game: Game, access: Access) -> HttpResponse:
        """The game's page as `access` sees it."""
        ...

    def update(self, request: HtmxHttpRequest, game: Game, access: Access, mark: Mark) -> Update:
        """What is new since `mark` for this follower: for `/live` and the page's stream."""
        ...

    def move(self, request: HtmxHttpRequest, game: Game, access: Access) -> HttpResponse:
        """A move posted from the page (the host's or a seat's phone): read, played, answered."""
        ...

    def chart(self, game: Game, upto: int | None, size: str) -> str:
        """The sheet's chart (SVG), after the first `upto` rows when given."""
        ...

    def replay(self, request: HtmxHttpRequest, game: Game) -> HttpResponse:
        """A finished game step by step."""
        ...


class Kind(Protocol):
    """What a kind of game offers the generic parts of the app."""

    name: str  # as stored in `Game.kind`
    # Its games as `Game.preset` stores them, each with the name a list of games shows.
    presets: Sequence[tuple[str, str | Promise]]
    # The fewest and the most players its games seat.
    seats: tuple[int, int]
    # The state is the same for every viewer (nothing hidden), so it can be built once per
    # version and shared; otherwise each viewer gets its own view.
    shared_state: bool
    # The operations this kind does not offer, and the refusal each gets.
    refuses: Mapping[str, Refusal]
    # The API's models: the state, and the state of a game just created (with keys); its
    # rules for `POST /api/games`, each with the preset that names it; the bodies `/moves`
    # takes; and its own operations of the OpenAPI document (`games.api.openapi.Operation`).
    state_model: type[pydantic.BaseModel]
    new_state_model: type[pydantic.BaseModel]
    rules_models: Sequence[tuple[str, type[pydantic.BaseModel]]]
    move_models: Sequence[type[pydantic.BaseModel]]
    api_operations: Sequence[Operation]
    pages: Pages
    # What the one store path (`games.store.moves`) plays: the kind's rules, start, moves,
    # chance and computer.
    engine: Engine[Any, Any, Any]
    # The choices besides the rules that creating its game takes (`create(**options)`).
    options: frozenset[str]
    # Its part of the create form: its games as the form offers them (with a few words on
    # each), the fields of its rules and options, and the template of its fieldsets, which
    # shows them only while one of its games is chosen.
    form_presets: Sequence[tuple[str, str | Promise]]
    form: type[django_forms.Form]
    form_template: str
    # Its games' sections of the rules page.
    rules_sections: Sequence[RulesSection]
    # Its own addresses, beside every kind's (its own pages, its API's own endpoints).
    urlpatterns: Sequence[URLPattern]
    # Its section of a player's page, if it has one (the dice games' luck and skill): drawn
    # with the player's `stats`, and free to load what it shows by itself, so that the page
    # costs the same however many kinds add a section.
    player_template: str | None
    # The host may play any seat's move through the API (nothing is hidden); else only the
    # seat's own key moves it.
    host_moves: bool
    # What its rows of the sheet mean to a player's page (`Turn.effect`): the rows that beat
    # the mark, and those whose cells in other seats' columns are damage dealt.
    beat_labels: frozenset[str]
    hit_labels: frozenset[str]

    def read_rules(self, raw: Mapping[str, Any]) -> object:
        """The kind's rules from a dict (the API's, the create form's). Raises `RuleError`,
        in the rules' own words."""
        ...

    def form_rules(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The kind's rules as a dict, from the create form's cleaned fields."""
        ...

    def form_extras(self, query: QueryDict, players: int) -> dict[str, Any]:
        """What its fieldsets show besides their fields, for the rules the form asks now."""
        ...

    def rules_context(self) -> dict[str, Any]:
        """The numbers its sections of the rules page quote (defaults and bounds)."""
        ...

    def check(self, rules: Mapping[str, Any], seats: int) -> None:
        """Refuse, with a `RuleError`, rules or a number of seats this kind cannot play."""
        ...

    def create(
        self, name: str, seats: Sequence[tuple[str, bool]], rules: Mapping[str, Any], **options: Any
    ) -> tuple[Game, str]:
        """A new game of these rules with these (name, computer) seats, and its host key.
        `options` are the create form's and the API's other choices, of `self.options`."""
        ...

    def api_state(self, game: Game, seat: int | None) -> dict[str, Any]:
        """The game as the API shows it to `seat` (None: any watcher), seats from 1."""
        ...

    def api_detail(self, game: Game, seat: int | None, since: int) -> HttpResponse:
        """`GET /api/games/{id}`: the state as `seat` may see it (`api_state`), in the shape
        of `state_model`; with `since`, a kind whose log is long may leave out the rows up to
        that one."""
        ...

    def api_move(self, game: Game, seat: int | None, body: dict[str, Any]) -> HttpResponse:
        """A move read from the API's JSON body and played by `seat` (None: the host), under
        `/api/games/{id}/moves`; 201 with the state. Refuses as `games.api.base` does."""
        ...

    def to_move(self, game: Game) -> int | None:
        """The seat whose move it is at the game's version (from 0), or None once it is over."""
        ...

    def standing(self, game: Game, cell_sums: Sequence[int]) -> Standing:
        """The standing from each seat's sum of cells, in seat order."""
        ...

    def sheet_csv(self, game: Game) -> str:
        """The sheet as a spreadsheet reads it: only what the whole table saw."""
        ...

    def rematch(self, old: Game, seats: Sequence[tuple[str, bool]]) -> tuple[Game, str]:
        """A new game of the same rules with these (name, computer) seats, and its host key;
        under the caller's transaction."""
        ...

    def export_turns(self, game: Game) -> list[dict[str, Any]]:
        """The game's turns as its file keeps them (`games.transfer`); asked only of a kind
        that offers `EXPORT`."""
        ...

    def import_turns(
        self, name: str, names: Sequence[str], rules: Any, turns: Sequence[Any]
    ) -> tuple[Game, str]:
        """A new game played through these turns from a file, and its host key. Raises
        `games.transfer.GameFileError` with a sentence; asked only of a kind that offers
        `EXPORT`."""
        ...


class SharedAnswer(Protocol):
    """A game's API state that is the same for every viewer, built once per version by its
    kind and kept in this process under `(SHARED_ANSWER, game id, version)`."""

    def response(self, since: int = 0, status: int = 200) -> HttpResponse:
        """The answer; with `since`, a kind whose log is long may leave out earlier rows."""
        ...


SHARED_ANSWER = "api-answer"


def known_answer(game_id: str) -> SharedAnswer | None:
    """The API state of a game at its current version, when its kind shares one answer among
    every viewer and this process has made it: one cheap query, or none."""
    from games.cache import current_version, peek  # the cache reads models: imported on use

    version = current_version(game_id)
    if version is None:
        return None
    found: SharedAnswer | None = peek((SHARED_ANSWER, game_id, version))
    return found


class UnknownKindError(LookupError):
    """A kind of game this app does not have."""


def find_kind(name: str) -> Kind:
    try:
        return KINDS[name]
    except KeyError:
        raise UnknownKindError(name) from None


def kind_for_rules(raw: Mapping[str, Any]) -> Kind:
    """The kind that plays rules with this preset. Rules without a preset, or with one no kind
    has, are the first kind's, whose rules then say what is wrong with them."""
    preset = raw.get("preset")
    first, *_others = KINDS.values()
    if not isinstance(preset, str):  # a preset of no kind, and the first kind's rules say so
        return first
    return next((kind for kind in KINDS.values() if preset in dict(kind.presets)), first)


def seat_bounds() -> tuple[int, int]:
    """The fewest and the most players any kind seats: what a list of players may hold
    before its kind checks it (`Kind.check`)."""
    return (
        min(kind.seats[0] for kind in KINDS.values()),
        max(kind.seats[1] for kind in KINDS.values()),
    )


def row_labels() -> tuple[frozenset[str], frozenset[str]]:
    """Every kind's labels of rows that beat the mark, and of rows that dealt damage."""
    beat = frozenset(label for kind in KINDS.values() for label in kind.beat_labels)
    return beat, frozenset(label for kind in KINDS.values() for label in kind.hit_labels)


def kind_of(game: Game) -> Kind:
    return find_kind(game.kind)


def refusal(game: Game, operation: str) -> Refusal | None:
    """Why this game's kind does not offer `operation`, or None when it does."""
    return kind_of(game).refuses.get(operation)


def offers(game: Game, operation: str) -> bool:
    return refusal(game, operation) is None


class _KindTable(Mapping[str, Kind]):
    """The kinds by name, as the setting `THIRTY_KINDS` lists them (dotted paths, in the
    order the create form offers them), imported at first use rather than with this module:
    each kind's package imports the generic modules (the sheet, the store, the forms) that ask
    the kinds in turn, as healthchecks loads a channel's transport only when asked for. A test
    that changes the setting gets its kinds at once."""

    def __init__(self) -> None:
        self._paths: tuple[str, ...] = ()
        self._table: dict[str, Kind] = {}

    def _kinds(self) -> dict[str, Kind]:
        paths = tuple(settings.THIRTY_KINDS)
        if paths != self._paths:
            kinds: list[Kind] = [import_string(path) for path in paths]
            self._table, self._paths = {kind.name: kind for kind in kinds}, paths
        return self._table

    def __getitem__(self, name: str) -> Kind:
        return self._kinds()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._kinds())

    def __len__(self) -> int:
        return len(self._kinds())


KINDS: Mapping[str, Kind] = _KindTable()

"""The card game's pages: the table and the hand, their live updates, a card played from a
seat's phone, and the chart and replay of the tokens deal by deal.

A seat's hand is rendered only into that seat's own answers; every watcher's page and
update is built once per version from the engine's view for nobody (`view(None)`), and so
are the parts of the table that a seat's and the host's answers share (`PublicParts`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpResponse, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.cache import add_never_cache_headers
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import store
from games.access import Access
from games.cache import cached
from games.kinds import kind_of
from games.kinds.cards import tournaments
from games.kinds.cards.charts import render_card_chart
from games.kinds.cards.describe import card_rules_summary
from games.kinds.cards.replay import replay_step
from games.kinds.cards.table import Table, build_table, parse_move
from games.models import Game
from games.page_stream import Mark, Update
from games.rules import RuleError
from games.translate import rule_error_message
from games.web.common import (
    HtmxHttpRequest,
    ReplayNav,
    chart_query,
    host_links,
    int_or_none,
    poll_seconds,
    share_url,
    watcher_page,
)


class CardPages:
    # What a phone that holds no seat is told when it posts a move.
    not_yours = gettext_noop("Only a player's own phone can play that seat's cards.")

    def page(self, request: HtmxHttpRequest, game: Game, access: Access) -> HttpResponse:
        seat = access.seat
        if not access.host and seat is None:
            # Every watcher sees the same page: built once per version from `view(None)`.
            def build(csrf_token: str) -> bytes:
                table = _card_table(game, None)
                context = _card_context(request, game, table, Access()) | {"csrf_token": csrf_token}
                return render(request, "games/card_game.html", context).content

            return watcher_page(request, game, build)
        # The host sees what a watcher sees, plus the seat links; a seat sees its own hand.
        table = _card_table(game, seat)
        context = _card_context(request, game, table, access)
        if access.host:
            context |= host_links(request, game)
            context["share_first"] = not table.view.log[1:] and not any(
                row.claimed for row in table.seats if not row.computer
            )
        response = render(request, "games/card_game.html", context)
        # A seat's page holds its hand, and the host's the seat links: no cache may keep them.
        add_never_cache_headers(response)
        return response

    def update(self, request: HtmxHttpRequest, game: Game, access: Access, mark: Mark) -> Update:
        """The whole table, which is small. Watchers share one copy per version; a seat's
        copy, with its hand, is made for that phone alone."""

        def render_update(seat: int | None, viewer: Access) -> Update:
            table = _card_table(game, seat)
            context = _card_context(request, game, table, viewer, oob=True)
            body = render(request, "games/card_update.html", context).content.decode()
            return Update(body, game.version, whole=True)

        if access.seat is not None or access.host:
            return render_update(access.seat, access)
        key = ("card-update", game.pk, game.version)
        return cached(key, lambda: render_update(None, Access()))

    def move(self, request: HtmxHttpRequest, game: Game, access: Access) -> HttpResponse:
        """A seat plays a card from its phone; the host's page has no hand to play from."""
        if access.seat is None:
            return HttpResponseForbidden(_(self.not_yours))
        error = None
        try:
            played = store.play(
                game.pk,
                access.seat,
                parse_move(request.POST.get("move", "")),
                version=int_or_none(request.POST.get("v")),
            )
        except RuleError as rule_error:
            error = rule_error_message(rule_error)
        except store.StaleVersionError:
            error = _("The table changed before your card arrived. Look again and play.")
        except store.NotYourTurnError:
            error = _("It is not your turn.")
        if error is None:
            if not request.htmx:  # a page without scripts: it loads the table itself
                return redirect("game", game.pk)
            game = played.game  # at the version the move made, its state remembered by it
        else:
            game.refresh_from_db()  # as it stands now: someone else may have moved
        table = _card_table(game, access.seat)
        context = _card_context(request, game, table, access, oob=bool(request.htmx))
        context["move_error"] = error
        if not request.htmx:
            return render(request, "games/card_game.html", context, status=422)
        context["cooldown"] = error is None
        response = render(request, "games/card_update.html", context)
        response["X-Thirty-Version"] = str(game.version)
        add_never_cache_headers(response)
        return response

    def chart(self, game: Game, upto: int | None, size: str) -> str:
        """The tokens after each deal (the first `upto` deals, for a replay's step); the
        winner's line is marked once the last deal is drawn."""
        names, rows = store.load_cells(game)
        cell_rows = [cells for _, cells in rows]
        drawn = cell_rows if upto is None else cell_rows[: max(0, upto)]
        winners: tuple[int, ...] = ()
        if len(drawn) == len(cell_rows):
            sums = [sum(column) for column in zip(*cell_rows, strict=True)] or [0] * len(names)
            standing = kind_of(game).standing(game, sums)
            winners = standing.winners if standing.finished else ()
        return render_card_chart(names, tournaments.rules_of(game).tokens, drawn, winners, size)

    def replay(self, request: HtmxHttpRequest, game: Game) -> HttpResponse:
        """Deal by deal, every hand shown: the seed is public by then."""
        if not game.finished:
            return redirect("game", game.pk)
        stories = cached(
            ("card-deals", game.pk, game.version), lambda: tournaments.card_deals(game)
        )
        if not stories:
            return redirect("game", game.pk)
        names = [seat.name for seat in store.seats_at_version(game)]
        sums = [sum(story.record.cells[seat] for story in stories) for seat in range(len(names))]
        winners = kind_of(game).standing(game, sums).winners
        wanted = int_or_none(request.GET.get("deal"))
        number = 1 if wanted is None else min(max(wanted, 1), len(stories))
        step = replay_step(stories, names, tournaments.rules_of(game).tokens, number, winners)
        context = {
            "game": game,
            "step": step,
            # The replay shell's regions (templates/games/replay_shell.html).
            "nav": ReplayNav("deal", number, 1, step.total, _("Deals")),
            "chart_query": chart_query(turn=number),
            "chart_alt": step.chart_alt,
            "chart_seats": step.seats,
        }
        return render(request, "games/card_replay.html", context)


def _card_table(game: Game, seat: int | None) -> Table:
    """The table as `seat` may see it (None: any watcher), from the engine's view only."""
    state = tournaments.load_tournament(game)
    seats = store.seats_at_version(game)
    return build_table(
        state.view(seat),
        [place.name for place in seats],
        [place.computer for place in seats],
        [place.claimed for place in seats],
    )


@dataclass(frozen=True)
class PublicParts:
    """What every phone shows of the table at a version, hand or no hand: its middle, seats
    and latest moves (`table`), and the sheet, chart and seed below (`records`). They are
    rendered from the watcher's view once per version, language and kind of answer (a whole
    page, or an update whose chart waits until it is seen) and shared by every answer, a
    seat's too, which adds only its status line and its own hand around them."""

    table: SafeString
    records: SafeString


def _public_context(
    request: HtmxHttpRequest, game: Game, table: Table, *, oob: bool
) -> dict[str, Any]:
    """`public`, the table's shared parts; `table`, the asker's, is used when it is the
    watcher's (the host's is)."""

    def build() -> PublicParts:
        public = table if table.view.seat is None else _card_table(game, None)
        context = {"game": game, "table": public, "oob": oob}
        return PublicParts(
            render_to_string("games/card_table_public.html", context, request),
            render_to_string("games/card_records.html", context, request),
        )

    return {"public": cached(("card-public", game.pk, game.version, oob), build)}


def _card_context(
    request: HtmxHttpRequest, game: Game, table: Table, access: Access, *, oob: bool = False
) -> dict[str, Any]:
    return _public_context(request, game, table, oob=oob) | {
        "oob": oob,
        "game": game,
        "table": table,
        "host": access.host,
        "rules_summary": card_rules_summary(tournaments.rules_of(game)),
        "share_url": share_url(request, game),
        "rematch_id": store.rematch_of(game) if table.view.finished else None,
        "poll_seconds": poll_seconds(finished=table.view.finished),
        # The page shell's regions (templates/games/page.html).
        "my_seat": access.seat,  # the turn signal tells this phone its own turn
        "seat_links_template": "games/card_seat_links.html",
        "exports": False,
    }

"""The dice games' pages: the turn pad and the dice tray, the sheet's live rows, undo, the
odds switch, dice made by the whole table, and the chart and replay of a sheet.

The generic views (`games.web`) call `DicePages` for the regions that are the dice games'
own; the views at the end of this module are dice-only pages of their own."""

from __future__ import annotations

import dataclasses
import hashlib
from typing import Any, cast

from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.cache import add_never_cache_headers
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import charts, store
from games.access import Access
from games.cache import cached
from games.kinds.dice import chances, coach, moves, pace
from games.kinds.dice.charts import render_chart
from games.kinds.dice.describe import rules_summary
from games.kinds.dice.explain import turn_summary
from games.kinds.dice.latest import LATEST_SHOWN, latest_moves
from games.kinds.dice.sheet import Sheet, full_sheet, last_rows, sheet_of, sheet_since
from games.kinds.dice.stored import load_snapshot, position_of, rolling_turn, up_to
from games.kinds.dice.table_dice import phone_parts, table_dice_check, waiting_roll
from games.kinds.dice.tray import before_roll_chance, recaps_of, tray_of, undone_turns
from games.models import Game
from games.page_stream import Mark, Update
from games.rules import RuleError, chance
from games.rules import dice as dice_rules
from games.rules.dice import rolled
from games.store.seeds import next_roll_label
from games.translate import rule_error_message
from games.web.common import (
    HOST,
    PHONE,
    HtmxHttpRequest,
    ReplayNav,
    chart_query,
    game_for,
    host_links,
    int_or_none,
    poll_seconds,
    refusals_answered,
    share_url,
    watcher_page,
)

NOT_YOUR_TURN = gettext_noop("It is not your turn. Your turn form appears here when it is.")
ENTER_TURNS = gettext_noop("Only the host can enter turns in this game.")


class DicePages:
    # What a phone that holds no seat is told when it posts a move.
    not_yours = ENTER_TURNS

    def page(self, request: HtmxHttpRequest, game: Game, access: Access) -> HttpResponse:
        if not access.host and access.seat is None:

            def build(csrf_token: str) -> bytes:
                sheet, table = _page_sheet(game)
                context = _game_context(request, sheet, Access(), whole_page=True) | {
                    "sheet_table": table,
                    "csrf_token": csrf_token,
                }
                return render(request, "games/game.html", context).content

            return watcher_page(request, game, build)
        sheet, table = _page_sheet(game)
        context = _game_context(request, sheet, access, whole_page=True) | {"sheet_table": table}
        if access.host:
            context |= host_links(request, game)
            # Until the table has joined, sharing the game is the host's first job.
            context["share_first"] = sheet.turn_count == 0 and not any(
                link.joined for link in context["seat_links"]
            )
        response = render(request, "games/game.html", context)
        if access.host:
            # The host's page shows the seat links and the host link: keys no cache may keep.
            add_never_cache_headers(response)
        return response

    def update(self, request: HtmxHttpRequest, game: Game, access: Access, mark: Mark) -> Update:
        count, last = mark.count, mark.last
        if access.host or access.seat is not None:
            sheet, replace = sheet_since(game, count, last)
            extra = {}
            if access.seat is not None and not replace:
                # A seat's phone only enters its own turns, so a new row of this seat's that
                # the phone did not send was entered by the host: say so, not reset silently.
                own = [row for row in sheet.rows if row.cells[access.seat].rolled]
                if own:
                    extra["entered_for_you"] = own[-1].total
            response = _render_update(
                request, sheet, replace=replace, access=access, extra=extra, shown_key=mark.key
            )
            return _sheet_update(response, sheet, replace)

        # Every watcher asks for the same change at about the same moment: build it once.
        def build() -> Update:
            sheet, replace = sheet_since(game, count, last, earlier=LATEST_SHOWN)
            response = _render_update(
                request, sheet, replace=replace, access=Access(), shown_key=mark.key
            )
            return _sheet_update(response, sheet, replace)

        return cached(("update", game.pk, game.version, mark.version, count, last, mark.key), build)

    def move(self, request: HtmxHttpRequest, game: Game, access: Access) -> HttpResponse:
        """A typed-in turn (its answers so far), or one step of a turn the app rolls: the
        tray's forms say `step=roll`, and the pad's "roll with the app" button `act=roll`."""
        if request.POST.get("step") == "roll" or "act" in request.POST:
            return roll_step(request, game, access)
        return typed_turn(request, game, access)

    def chart(self, game: Game, upto: int | None, size: str) -> str:
        snapshot = load_snapshot(game)
        if upto is not None:
            snapshot = up_to(snapshot, max(0, upto))
        return render_chart(snapshot, size)

    def replay(self, request: HtmxHttpRequest, game: Game) -> HttpResponse:
        snapshot = load_snapshot(game)
        total = len(snapshot.rows)
        if not snapshot.position.finished:
            return redirect("game", game.pk)
        step = int_or_none(request.GET.get("turn"))
        step = total if step is None else min(max(step, 0), total)
        sheet = sheet_of(up_to(snapshot, step))
        context = {
            "game": game,
            "sheet": sheet,
            "step": step,
            "total": total,
            "row": sheet.rows[-1] if sheet.rows else None,
            # The replay shell's regions (templates/games/replay_shell.html).
            "nav": ReplayNav("turn", step, 0, total, _("Turns")),
            "chart_query": chart_query(v=game.version, lang=get_language(), turn=step)
            if step
            else None,
            "chart_alt": sheet.chart_alt,
            "chart_seats": sheet.seats,
        }
        return render(request, "games/replay.html", context)


def typed_turn(request: HtmxHttpRequest, game: Game, access: Access) -> HttpResponse:
    """A turn typed in as its answers (total, heal or attack, whom, hunt), one step a post."""
    answers, error = _parse_turn(request.POST)
    version = int_or_none(request.POST.get("v"))
    question: dice_rules.Question | None = None
    if error is None:
        try:
            position = position_of(game)
            if not access.may_act(game, position.next_roller):
                raise store.NotYourTurnError
            question = position.ask(answers["total"], answers["heal"], answers["target"])
            if question is None or (
                question.step is dice_rules.Step.HUNT and answers["hunt"] is not None
            ):
                played = moves.record_turn(
                    game.pk,
                    dice_rules.Turn(
                        answers["total"], answers["hunt"], answers["target"], bool(answers["heal"])
                    ),
                    version=version,
                    seat=None if access.host else access.seat,
                    part=request.POST.get("part"),
                )
                if not request.htmx:
                    return redirect("game", game.pk)
                return _played(request, played, access, {})
        except RuleError as rule_error:
            error = rule_error_message(rule_error)
        except store.StaleVersionError:
            error = _(
                "Someone else changed the game first. Check the sheet and enter the turn again."
            )
        except store.NotYourTurnError:
            error = _(NOT_YOUR_TURN)
        except store.TurnInProgressError:
            error = _("The app is rolling this turn: finish it with the dice shown.")
        if error is not None:
            answers = dict.fromkeys(answers)  # start the turn again
            question = None
    return _turn_panel(request, game, access, error, question, answers)


def _turn_panel(
    request: HtmxHttpRequest,
    game: Game,
    access: Access,
    error: str | None,
    question: dice_rules.Question | None = None,
    answers: dict[str, Any] | None = None,
    entered: str = "",
) -> HttpResponse:
    """The turn's next question, or the sentence that says why a post changed nothing; with
    `entered`, the dice thrown at the table that were entered, to be put right."""
    game.refresh_from_db()
    sheet, table = _page_sheet(game)
    context = _game_context(request, sheet, access, question, answers) | {
        "turn_error": error,
        "sheet_table": table,
        "dice_entered": entered,
    }
    if request.htmx:
        # htmx swaps only successful answers; the panel carries the error sentence itself.
        return render(request, "games/turn_panel.html", context | {"oob": True})
    return render(request, "games/game.html", context, status=422 if error else 200)


def _parse_turn(post: Any) -> tuple[dict[str, Any], str | None]:
    answers: dict[str, Any] = {"total": None, "heal": None, "target": None, "hunt": None}
    for key in ("total", "hunt", "target"):
        raw = post.get(key)
        if raw in (None, ""):
            continue
        value = int_or_none(raw)
        if value is None:
            return dict.fromkeys(answers), _("“%(value)s” is not a number.") % {"value": raw[:10]}
        answers[key] = value
    if answers["target"] is not None:
        answers["target"] -= 1  # seats are numbered from 1 on the page
    action = post.get("action")
    if action in (dice_rules.ATTACK, dice_rules.HEAL):
        answers["heal"] = action == dice_rules.HEAL
    return answers, None


def roll_step(request: HtmxHttpRequest, game: Game, access: Access) -> HttpResponse:
    """One step of a rolled turn, from the roller's phone or the host's: with dice the app
    rolls, or with the dice thrown at the table, entered roll by roll; or the last entry of
    those taken back to be entered again."""
    if request.POST.get("act") == "back":
        return _take_back_entry(request, game, access)
    action, error = _parse_roll(request.POST, game)
    dice, dice_error = _parse_dice(request.POST.get("dice", ""))
    error = error or dice_error
    if action is not None and error is None:
        try:
            played = moves.roll(
                game.pk,
                action,
                version=int_or_none(request.POST.get("v")),
                seat=None if access.host else access.seat,
                part=request.POST.get("part"),
                dice=dice,
                table=request.POST.get("act") == "throw",
            )
        except RuleError as rule_error:
            error = rule_error_message(rule_error)
        except store.StaleVersionError:
            error = _("Someone else changed the game first. Look at the dice and choose again.")
        except store.NotYourTurnError:
            error = _(NOT_YOUR_TURN)
        except store.RollWaitsError as waits:
            # The roll waits for the other phones' parts: every page shows it waiting.
            if not request.htmx:
                return redirect("game", game.pk)
            sheet, replace = sheet_since(
                waits.game,
                int_or_none(request.POST.get("n")) or 0,
                int_or_none(request.POST.get("t")),
            )
            return _render_update(request, sheet, replace=replace, access=access, extra={})
        else:
            if not request.htmx:
                return redirect("game", game.pk)
            return _played(request, played, access, {"cooldown": True})
    response = _turn_panel(request, game, access, error, entered=request.POST.get("dice", ""))
    if not request.htmx:
        response.status_code = 422
    return response


def _take_back_entry(request: HtmxHttpRequest, game: Game, access: Access) -> HttpResponse:
    """The roller corrects the last roll they entered of dice thrown at the table."""
    error = None
    try:
        back = store.take_back_step(
            game.pk,
            None if access.host else access.seat,
            version=int_or_none(request.POST.get("v")),
        )
    except RuleError as rule_error:
        error = rule_error_message(rule_error)
    except store.StaleVersionError:
        error = _("Someone else changed the game first. Look at the dice and choose again.")
    except store.NotYourTurnError:
        error = _(NOT_YOUR_TURN)
    except store.TurnInProgressError:
        error = _("The app rolled these dice: they stay.")
    if error is None:
        if not request.htmx:
            return redirect("game", game.pk)
        sheet, replace = sheet_since(
            back, int_or_none(request.POST.get("n")) or 0, int_or_none(request.POST.get("t"))
        )
        return _render_update(request, sheet, replace=replace, access=access, extra={})
    response = _turn_panel(request, game, access, error)
    if not request.htmx:
        response.status_code = 422
    return response


DIE_FACES = "123456"


def _parse_dice(raw: str) -> tuple[tuple[int, ...], str | None]:
    """The faces of dice thrown at the table as the roller typed or tapped them ("665112",
    or with spaces or commas between)."""
    text = raw.replace(",", " ").replace(" ", "")
    for mark in text:
        if mark not in DIE_FACES:
            return (), _("A die shows a number from 1 to 6, not %(value)s.") % {"value": mark}
    return tuple(int(mark) for mark in text), None


def _played(
    request: HtmxHttpRequest, played: store.Played, access: Access, extra: dict[str, Any]
) -> HttpResponse:
    """The rows a move wrote, with a line that says what the turn did once it is complete."""
    sheet, replace = sheet_since(
        played.game,
        int_or_none(request.POST.get("n")) or 0,
        int_or_none(request.POST.get("t")),
        moves.state_after(played).position,
    )
    row = moves.row_written(played)
    if row is not None:
        names = [seat.name for seat in sheet.seats]
        extra = extra | {"confirmation": turn_summary(row, names, sheet.ruleset)}
    return _render_update(request, sheet, replace=replace, access=access, extra=extra)


def _parse_roll(post: Any, game: Game) -> tuple[rolled.Action | None, str | None]:
    """The step a roll form sent. The dice to set aside come as their places in the last
    roll (checkboxes), or as faces from a hint ("6,6"); the server never takes a die's face
    from the form in any other way."""
    act = post.get("act")
    if act in ("roll", "throw"):
        return rolled.Action(), None
    if act == "hunt":
        return rolled.Action(hunt=True), None
    if act == "stop":
        return rolled.Action(stop=True), None
    if act in ("heal", "attack"):
        return rolled.Action(heal=act == "heal"), None
    if (target := int_or_none(post.get("target"))) is not None:
        return rolled.Action(target=target - 1, hunt=True), None
    if faces := post.get("faces"):
        keep = [int_or_none(face) for face in faces.split(",")[:6]]
        if None in keep:
            return None, _("Set aside only dice from the last roll.")
        return rolled.Action(keep=tuple(cast(list[int], keep))), None
    if act == "keep":
        turn = rolling_turn(game)
        last = turn.rolls[-1].dice if turn is not None and turn.rolls else ()
        places = {int_or_none(raw) for raw in post.getlist("keep")}
        if not places:
            return None, _("Set aside at least one die.")
        if not places <= set(range(len(last))):
            return None, _("Set aside only dice from the last roll.")
        chosen = sorted(place for place in places if place is not None)
        return rolled.Action(keep=tuple(last[place] for place in chosen)), None
    return None, _("That is not a choice in this turn now.")


def _page_sheet(game: Game) -> tuple[Sheet, str]:
    """The sheet's summary and its rendered table. Rows never change once written, so the
    table is rendered once per version and process, however many phones open the page."""

    def build() -> tuple[Sheet, str]:
        sheet = sheet_of(load_snapshot(game))
        table = render_to_string("games/sheet_table.html", {"sheet": sheet})
        return dataclasses.replace(sheet, rows=()), table

    return cached(("page", game.pk, game.version), build)


def _sheet_update(response: HttpResponse, sheet: Sheet, replace: bool) -> Update:
    return Update(
        response.content.decode(),
        sheet.game.version,
        sheet.turn_count,
        sheet.last_turn_id,
        whole=replace,
        key=_chart_key_mark(sheet),
    )


def _render_update(
    request: HtmxHttpRequest,
    sheet: Sheet,
    *,
    replace: bool,
    access: Access,
    extra: dict[str, Any] | None = None,
    shown_key: str | None = None,
) -> HttpResponse:
    """The update for a page whose chart's key is `shown_key` (its mark; None: not known)."""
    if sheet.finished and sheet.summary is None:
        # The game just ended: the highlights and the BG Stats link need every row, once.
        game = sheet.game
        whole = cached(("ended", game.pk, game.version), lambda: full_sheet(game))
        sheet = dataclasses.replace(sheet, summary=whole.summary, bgstats_url=whole.bgstats_url)
    context = _game_context(request, sheet, access)
    # The chart's key changes only with a name, a win or a player out, and each of its lines
    # and links is a part every phone sets up again: it comes only when the page's differs.
    context |= {"replace": replace, "chart_key": shown_key != context["chart_key_mark"]}
    response = render(request, "games/sheet_update.html", context | (extra or {}))
    # The page ignores an update older than what it already shows (a poll that crossed a turn).
    response["X-Thirty-Version"] = str(sheet.game.version)
    return response


def _chart_key_mark(sheet: Sheet) -> str:
    """A short mark of what the chart's key shows (nothing before the first turn), which the
    page sends back with its poll and its stream (`k`) to say which key it has."""
    entries = charts.key_entries(sheet.seats) if sheet.turn_count else ()
    return hashlib.blake2s(repr(entries).encode(), digest_size=4).hexdigest()


def _game_context(
    request: HtmxHttpRequest,
    sheet: Sheet,
    access: Access,
    question: dice_rules.Question | None = None,
    answers: dict[str, Any] | None = None,
    *,
    whole_page: bool = False,
) -> dict[str, Any]:
    can_play = access.may_act(sheet.game, sheet.position.next_roller) and not sheet.finished
    if question is None and can_play:
        question = sheet.position.ask()
    answers = answers or {}
    total = answers.get("total")
    game = sheet.game
    rolling = rolling_turn(game)
    names = [seat.name for seat in sheet.seats]
    tray = tray_of(rolling, names, hints=game.hints)
    # The latest moves in words, for the table screen (the watcher's page shown large, with
    # the same updates): a phone with a seat or the host's key never shows them.
    watcher = not access.host and access.seat is None
    key_mark = _chart_key_mark(sheet)  # which key the page shows, said back with each poll
    return {
        # A turn with dice the app rolls: every phone sees it, the roller (or host) acts on it.
        "tray": tray,
        "latest": latest_moves(last_rows(sheet, LATEST_SHOWN)) if watcher else None,
        "recaps": recaps_of(game, names) if rolling is None else (),
        "undone": undone_turns(game, names),
        "tray_controls": can_play and rolling is not None,
        "roll_chance": before_roll_chance(sheet.position)
        if game.hints and can_play and rolling is None and not sheet.finished
        else None,
        "sheet": sheet,
        "game": sheet.game,
        "host": access.host,
        "seat": None if access.seat is None else sheet.seats[access.seat],
        # The turn panel: the host always has one, a player with a seat link too.
        "panel": access.host or access.seat is not None,
        "question": question if can_play else None,
        "answers": answers,
        "margin": None if total is None else total - sheet.ruleset.beat_above,
        "target_choices": [
            sheet.seats[seat]
            for seat in (
                question.options if question and question.step is dice_rules.Step.TARGET else ()
            )
            if isinstance(seat, int)
        ],
        "rules_summary": rules_summary(sheet.ruleset),
        "chances_query": chances.rules_query(sheet.ruleset),
        "time_to_go": _time_to_go(sheet, first_now=whole_page),
        "share_url": share_url(request, sheet.game),
        "rematch_id": store.rematch_of(sheet.game) if sheet.finished else None,
        "dice_seed": store.revealed_seed(game) if sheet.finished else None,
        "poll_seconds": poll_seconds(finished=sheet.finished),
        # The page shell's regions (templates/games/page.html).
        "my_seat": access.seat,  # the turn signal tells this phone its own turn
        "seat_links_template": "games/seat_links.html",
        "exports": True,
        "chart_key_mark": key_mark,
        "stream_marks": {"n": sheet.turn_count, "t": sheet.last_turn_id, "k": key_mark},
    } | _table_dice_context(game, access, sheet.position.next_roller)


def _time_to_go(sheet: Sheet, *, first_now: bool) -> dict[str, Any] | None:
    """How long the game has to go at the table's own pace, once the table has played."""
    found = pace.table_pace(sheet.game, sheet.position, first_now=first_now)
    if found is None:
        return None
    return {"seconds": round(found.seconds), "time": chances.clock(found.minutes_to_go)}


def _table_dice_context(game: Game, access: Access, next_roller: int | None) -> dict[str, Any]:
    """The phones that make this game's dice, and whether this phone is one of them: the
    host's and every seat's phone join by themselves. The roller's phone sends its part with
    the roll; every other phone sends its part once the roll has been asked for and waits
    (static/table-dice.js), so that nobody knows every part before the roller has chosen."""
    if not game.table_dice:
        return {}
    parts = phone_parts(game)
    phone = access.host or access.seat is not None
    mine = None if access.host else access.seat  # the host's phone joins as the host
    own = next((part for part in parts if part.seat == mine), None) if phone else None
    waiting = waiting_roll(game)
    return {
        "table_parts": parts,
        "table_phone": phone,
        "table_joined": own is not None and not own.asleep,
        "table_revealed": own is not None and bool(own.secret),
        "table_label": next_roll_label(game),
        "table_withhold": waiting is None or waiting.roller == mine,
        "table_waiting": waiting,
    }


# -- the dice games' own pages -----------------------------------------------------------------


KIND = "dice"  # this package's own kind, as stored in `Game.kind`


def _dice_game(
    request: HtmxHttpRequest, game_id: str, *, who: str, refusal: str = ""
) -> tuple[Game, Access]:
    """The guard of the dice-only views: another kind's game is no page here (404)."""
    return game_for(request, game_id, who=who, refusal=refusal, kind=KIND)


@require_POST
@refusals_answered
def turn(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The pad's address before every kind posted its moves to one view; kept as an alias."""
    game, access = _dice_game(request, game_id, who=PHONE, refusal=_(ENTER_TURNS))
    return typed_turn(request, game, access)


@require_POST
@refusals_answered
def roll(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The tray's address before every kind posted its moves to one view; kept as an alias."""
    game, access = _dice_game(request, game_id, who=PHONE, refusal=_(ENTER_TURNS))
    return roll_step(request, game, access)


@require_http_methods(["GET", "POST"])
@refusals_answered
def undo(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    game, _access = _dice_game(
        request, game_id, who=HOST, refusal=_("Only the host can undo turns in this game.")
    )
    if request.method == "GET":
        # Without scripts the confirmation is a page of its own.
        return render(request, "games/undo_confirm.html", {"sheet": full_sheet(game)})
    try:
        store.undo(game.pk, version=int_or_none(request.POST.get("v")))
    except RuleError as error:
        # Nothing to undo, or a turn the app rolled, which stays (the undo policy).
        sheet = full_sheet(game)
        refused = rule_error_message(error) if sheet.turn_count else None
        context = {"sheet": sheet, "refused": refused}
        return render(request, "games/undo_confirm.html", context, status=422)
    except (store.StaleVersionError, store.TurnInProgressError):
        pass  # someone else changed the game first: the fresh sheet shows what
    if not request.htmx:
        return redirect("game", game.pk)
    game.refresh_from_db()
    return _render_update(request, full_sheet(game), replace=True, access=Access(host=True))


@require_POST
@refusals_answered
def hints(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """The host shows the odds of each choice to the roller, or hides them."""
    game, _access = _dice_game(
        request, game_id, who=HOST, refusal=_("Only the host can switch the hints on or off.")
    )
    store.show_hints(game.pk, shown=request.POST.get("shown") == "on")
    return redirect("game", game.pk)


@require_POST
@refusals_answered
def table_dice(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """A phone joins the table's dice (`commitment`), sends its part of the roll that waits for
    it (`label` and `part`), asks for that roll to be made once its wait ran out (`finish`)
    or, at the end, shows its secret (`secret`); the page's script does each by itself
    (static/table-dice.js)."""
    game, access = _dice_game(
        request,
        game_id,
        who=PHONE,
        refusal=_("Only the host's and the players' phones make the dice."),
    )
    seat = None if access.host else access.seat
    try:
        if "secret" in request.POST:
            store.reveal_table_secret(game.pk, seat, request.POST["secret"].strip().lower())
        elif "label" in request.POST:
            part = request.POST.get("part", "").strip().lower()
            if not chance.is_digest(part):
                return HttpResponseBadRequest(_("A phone's part is an HMAC-SHA256 in hex."))
            store.send_part(game.pk, seat, request.POST["label"], part)
        elif "finish" in request.POST:
            store.finish_waiting_roll(game.pk)
        else:
            commitment = request.POST.get("commitment", "").strip().lower()
            if not chance.is_digest(commitment):
                return HttpResponseBadRequest(_("A phone's part is the SHA-256 of its secret."))
            store.join_table_dice(game.pk, seat, commitment)
    except store.TableDiceError as refused:
        return HttpResponse(_(refused.message), status=409, content_type="text/plain")
    return HttpResponse(status=204)


@require_GET
def check_dice(request: HtmxHttpRequest, game_id: str) -> HttpResponse:
    """Every roll of a game whose dice the table made, with every part shown at the end, for
    the browser to roll again (static/table-dice.js) and say whether all match."""
    game = get_object_or_404(Game, pk=game_id, kind=KIND)
    return render(request, "games/check_dice.html", table_dice_check(game))


@require_GET
def coaching(request: HtmxHttpRequest, name: str) -> HttpResponse:
    """A player's luck and skill over their dice games, for their page (`dice_player.html`)."""
    from games.names import name_key

    figures = coach.player_figures(name_key(name.strip()))
    context = {
        "name": name,
        "summaries": coach.player_summaries(figures),
        "chart_key": sum(hash((f.game_id, f.turns)) % 1000 for f in figures),
    }
    return render(request, "games/dice_coaching.html", context)


@require_GET
def coaching_chart(request: HtmxHttpRequest, name: str) -> HttpResponse:
    """A player's luck and skill game by game (`coach.render_coaching`), as an SVG picture."""
    from games.names import name_key

    objective = request.GET.get("objective", coach.BEAT)
    if objective not in (coach.BEAT, coach.POINTS):
        raise Http404
    size = "narrow" if request.GET.get("size") == "narrow" else "wide"
    figures = coach.player_figures(name_key(name.strip()))
    response = HttpResponse(coach.render_coaching(figures, objective, size), "image/svg+xml")
    # A picture: no scripts, and only the styles it carries.
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response

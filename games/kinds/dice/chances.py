"""The Chances page, its charts, and the create form's estimate of how long a game takes.

Everything shown comes from `games.rules` (exact odds, the computer's policy, the seeded
game-length simulation); this module only reads a rule set from the query string and draws.
Charts are pygal SVG files served at their own URLs and shown with <img>, so the page keeps
the strict Content-Security-Policy: pygal's SVG carries a <style> element, which only the
chart's own response allows, and no script (`js=[]`).
"""

from __future__ import annotations

import dataclasses
import fcntl
import hashlib
import json
import os
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pygal
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.utils.formats import number_format
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from pygal.style import Style

from games.kinds import KINDS, kind_for_rules
from games.kinds.dice.describe import rules_summary
from games.kinds.dice.form import DiceRulesForm
from games.rules import RuleError
from games.rules.dice import MAX_PLAYERS, MIN_PLAYERS, PRESETS, Position, RuleSet, odds
from games.rules.dice import bot as dice_bot
from games.rules.dice import estimate as estimates
from games.rules.dice.ruleset import MAX_TARGET, MIN_TARGET
from games.translate import rule_error_message

DEFAULT_PLAYERS = 4
RULE_FIELDS = (
    "preset",
    "set_aside",
    *DiceRulesForm.THIRTY_FIELDS,
    *DiceRulesForm.THIRTY_S_FIELDS,
)
TARGETS = range(MIN_TARGET, MAX_TARGET + 1)
NBSP = "\u00a0"


def not_dice() -> frozenset[str]:
    """The games of the other kinds, which are not played with dice: no estimate is for them."""
    every = frozenset(key for kind in KINDS.values() for key, _label in kind.presets)
    return every - set(PRESETS)


# -- reading a rule set from the query string ------------------------------------------------


@dataclass(frozen=True)
class Asked:
    """What a query asked about: a dice rule set and a table size, or why not."""

    rules: RuleSet | None
    players: int
    error: str = ""


def read_query(query: QueryDict, players: int | None = None) -> Asked:
    """The create form's rule fields, as the form names them; anything unreadable keeps its
    default, so a half-filled form still gets an answer. The table size is `players`, or
    the form's rows of player names, or `players=` in the query."""
    names = query.getlist("player")
    if players is None:
        players = len(names) if names else _int(query.get("players"), DEFAULT_PLAYERS)
    players = min(max(players, MIN_PLAYERS), MAX_PLAYERS)
    if query.get("preset") in not_dice():
        return Asked(None, players)
    fields = DiceRulesForm().fields
    data: dict[str, Any] = {"preset": query.get("preset")}
    for name in RULE_FIELDS[1:]:
        try:
            data[name] = fields[name].clean(query.get(name))
        except Exception:
            data[name] = None
    if data["preset"] not in PRESETS:
        data["preset"] = "thirty"
    try:
        return Asked(RuleSet.from_dict(kind_for_rules(data).form_rules(data)), players)
    except RuleError as error:
        return Asked(None, players, error=rule_error_message(error))


def _int(raw: str | None, default: int) -> int:
    if raw is None or not (raw.isascii() and raw.isdigit() and len(raw) <= 2):
        return default
    return int(raw)


def rules_query(rules: RuleSet, players: int | None = None) -> str:
    """The query string that asks for `rules` again, in the create form's names."""
    values = DiceRulesForm.initial_from(rules)
    pairs: list[tuple[str, Any]] = [("preset", rules.preset), ("set_aside", rules.set_aside)]
    fields = DiceRulesForm.THIRTY_S_FIELDS if rules.counts_up else DiceRulesForm.THIRTY_FIELDS
    for name in fields:
        value = values[name]
        if value is True:
            pairs.append((name, "on"))
        elif value not in (False, None):
            pairs.append((name, value))
    if players is not None:
        pairs.append(("players", players))
    return urlencode(pairs)


# -- how long a game takes ----------------------------------------------------------------


def five_minutes(minutes: float) -> int:
    return max(5, round(minutes / 5) * 5)


def clock(minutes: float) -> str:
    """A length of time a table can plan around, short enough for a phone: 5-minute steps,
    "45 min", "2 h", "2 h 5 min", never broken across lines."""
    hours, rest = divmod(five_minutes(minutes), 60)
    if not hours:
        shown = _("%(minutes)s min") % {"minutes": rest}
    elif not rest:
        shown = _("%(hours)s h") % {"hours": hours}
    else:
        shown = _("%(hours)s h %(minutes)s min") % {"hours": hours, "minutes": rest}
    return shown.replace(" ", NBSP)


def clock_range(low: float, high: float) -> str:
    """From one length of time to another: "10–25 min", "2 h 5 min–2 h 45 min"."""
    shorter, longer = five_minutes(low), five_minutes(high)
    if shorter == longer:
        return clock(low)
    if longer < 60:  # the unit once
        shown = _("%(low)s–%(high)s min") % {"low": shorter, "high": longer}
        return shown.replace(" ", NBSP)
    return f"{clock(low)}–{clock(high)}"


def count(number: int) -> str:
    """A count with the language's thousands separator: "1,000", "1.000"."""
    return number_format(number, force_grouping=True)


def estimate_context(asked: Asked, *, wait: bool = True) -> dict[str, Any]:
    """The estimate line's words; with `wait` False, a line that asks for the estimate by
    itself when it has not been worked out yet (the create form does not wait seconds for it)."""
    if asked.rules is None:
        return {"estimate": None, "estimate_error": asked.error}
    found = kept_estimate(asked.rules, asked.players) if wait else None
    if found is None:
        found = known_estimate(asked.rules, asked.players)
    if found is None:
        return {"estimate": None, "estimate_pending": True}
    return {
        "estimate": found,
        "estimate_low": count(found.low),
        "estimate_median": count(found.median),
        "estimate_high": count(found.high),
        "estimate_limit": count(estimates.MAX_TURNS),
        "estimate_time": clock_range(estimates.minutes(found.low), estimates.minutes(found.high)),
        "estimate_shortest": clock(estimates.minutes(found.low)),
        "estimate_players": asked.players,
        "estimate_games": count(found.games),
        "seconds_per_turn": estimates.SECONDS_PER_TURN,
        "chances_query": rules_query(asked.rules),
    }


# The estimates this process knows, by rule set and table size (a few hundred at most).
_KNOWN: dict[tuple[RuleSet, int], estimates.Estimate] = {}


def forget_estimates() -> None:
    """Forget the estimates this process knows, as a new process would (the files stay)."""
    _KNOWN.clear()


def known_estimate(rules: RuleSet, players: int) -> estimates.Estimate | None:
    """The seeded estimate without playing any game: remembered by this process, or kept in a
    file of the data directory by any process, before or since a restart; None if neither."""
    found = _KNOWN.get((rules, players))
    if found is None:
        try:
            found = estimates.Estimate(**json.loads(_estimate_path(rules, players).read_text()))
        except (OSError, ValueError, TypeError):
            return None  # not worked out yet, or a file this code cannot read
        _KNOWN[rules, players] = found
    return found


def kept_estimate(rules: RuleSet, players: int) -> estimates.Estimate:
    """The seeded estimate, kept in a file of the data directory too. Its 1,000 games take
    seconds the first time a rule set and table size are asked for (`make bench`), so
    every app process, and the app after a restart, reads the figures instead of playing
    them again. The file is named by the code's version (`estimates.version()`): figures
    that other code played are never read back."""
    found = known_estimate(rules, players)
    if found is not None:
        return found
    path = _estimate_path(rules, players)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = path.with_suffix(".lock").open("a")
    except OSError:
        return _work_out(rules, players, path)  # a data directory the app cannot write
    with lock:
        # One request plays the games while any other asking for the same figures, in this
        # process or another, waits for them: the form asks on load and on every change,
        # and two workers would each spend seconds on the same games.
        fcntl.flock(lock, fcntl.LOCK_EX)
        return known_estimate(rules, players) or _work_out(rules, players, path)


def _work_out(rules: RuleSet, players: int, path: Path) -> estimates.Estimate:
    found = estimates.estimate(rules, players)
    _KNOWN[rules, players] = found
    try:
        # Written whole, then renamed: another process never reads half a file.
        partial = path.with_name(f"{path.stem}.{os.getpid()}.tmp")
        partial.write_text(json.dumps(dataclasses.asdict(found)))
        os.replace(partial, path)
    except OSError:
        pass  # a data directory the app cannot write: the figures stay in memory
    return found


def _estimate_path(rules: RuleSet, players: int) -> Path:
    asked = f"{estimates.version()}:{players}:{rules!r}"
    return estimates_dir() / (hashlib.sha256(asked.encode()).hexdigest()[:32] + ".json")


def estimates_dir() -> Path:
    return Path(settings.DATA_DIR) / "estimates"


@require_GET
def estimate(request: HttpRequest) -> HttpResponse:
    """The create form's estimate line, from the form's own fields (htmx asks on change)."""
    context = {"e": estimate_context(read_query(request.GET))}
    response = render(request, "games/estimate_line.html", context)
    patch_cache_control(response, max_age=3600)
    return response


# -- the Chances page -----------------------------------------------------------------------


def percent(chance: Fraction | float) -> str:
    # Rounded here: Django's number_format cuts a float's decimals off instead of rounding.
    return number_format(round(float(chance) * 100, 1), 1) + " %"


def start_plan(rules: RuleSet) -> dice_bot.Plan:
    """The computer's plan for a first turn, with nobody hit yet."""
    return dice_bot.plan(Position.start(rules, DEFAULT_PLAYERS))


def totals_under_best_play(rules: RuleSet) -> dict[int, Fraction]:
    """The distribution of a turn's total under the computer's play (best play in Thirty)."""
    if not rules.counts_up:
        return odds.turn_odds(rules.target, rules.set_aside).totals
    return dict(odds._distribution(start_plan(rules).solution))


@require_GET
def chances(request: HttpRequest) -> HttpResponse:
    asked = read_query(request.GET)
    rules = asked.rules or RuleSet()
    totals = totals_under_best_play(rules)
    mark = rules.beat_above
    beat = sum((p for total, p in totals.items() if total > mark), Fraction(0))
    context: dict[str, Any] = {
        "rules": rules,
        "summary": rules_summary(rules),
        "query": rules_query(rules),
        "mark": mark,
        "beat": percent(beat),
        "totals": [(total, percent(p)) for total, p in totals.items() if p],
        "targets": [
            (
                target,
                percent(odds.turn_odds(target, "any").p_beat),
                percent(odds.turn_odds(target, "one").p_beat),
            )
            for target in TARGETS
        ],
        "error": asked.error,
    }
    if rules.counts_up:
        exactly = totals[mark]
        context |= {
            "exactly": percent(exactly),
            "below": percent(1 - beat - exactly),
            "net": number_format(round(float(start_plan(rules).value()), 2), 2),
        }
    return render(request, "chances.html", context)


CHART_STYLE = Style(
    background="#ffffff",
    plot_background="#ffffff",
    foreground="#1f2933",
    foreground_strong="#1f2933",
    foreground_subtle="#d5dbe1",
    colors=("#2f6f4f", "#b9c4cc", "#c0562f"),
    font_family="system-ui, sans-serif",
    label_font_size=18,
    major_label_font_size=18,
    value_font_size=16,
    legend_font_size=20,
    title_font_size=22,
)


def _chart(kind: type[pygal.Graph], **options: Any) -> Any:
    return kind(
        style=CHART_STYLE,
        js=[],  # no script in the SVG: it is shown as an image, and the CSP allows none
        disable_xml_declaration=True,
        explicit_size=False,
        # A small canvas with large type: on a 390px phone the text stays readable.
        width=540,
        height=400,
        legend_at_bottom=True,
        legend_at_bottom_columns=1,
        truncate_label=-1,  # pygal shortens labels to fit by default: "10" became "..."
        truncate_legend=-1,
        show_y_guides=True,
        margin=12,
        **({"print_values": False} | options),
    )


def totals_chart(rules: RuleSet) -> str:
    totals = totals_under_best_play(rules)
    mark = rules.beat_above
    chart = _chart(pygal.StackedBar, x_label_rotation=0, show_minor_x_labels=False)
    chart.x_labels = [str(total) for total in totals]
    chart.x_labels_major = [str(total) for total in totals if total % 5 == 0]
    chart.x_title = _("Total")
    chart.y_title = _("Chance, %")
    chart.add(
        _("Beats %(mark)s") % {"mark": mark},
        [round(float(p) * 100, 2) if total > mark else None for total, p in totals.items()],
    )
    chart.add(
        _("Does not beat %(mark)s") % {"mark": mark},
        [None if total > mark else round(float(p) * 100, 2) for total, p in totals.items()],
    )
    return _svg(chart)


def _svg(chart: Any) -> str:
    """The chart as SVG text without any script: with `js=[]` pygal still writes its config
    into a <script> element, which an image never runs; it goes, so nothing in the file
    needs the Content-Security-Policy to allow a script."""
    root = chart.render_tree()
    for parent in root.iter():
        for child in list(parent):
            if str(child.tag).rsplit("}", 1)[-1] == "script":
                parent.remove(child)
    return str(ElementTree.tostring(root, encoding="unicode"))


def targets_chart() -> str:
    chart = _chart(
        pygal.Bar,
        print_values=True,
        print_values_position="top",
        formatter=lambda value: number_format(round(value, 1), 1),  # "53,8" in Danish
    )
    chart.x_labels = [str(target) for target in TARGETS]
    chart.x_title = _("Target")
    chart.y_title = _("Chance to beat it, %")
    chart.add(
        _("Any number of dice per roll"),
        [round(float(odds.turn_odds(t, "any").p_beat) * 100, 1) for t in TARGETS],
    )
    chart.add(
        _("Exactly one die per roll"),
        [round(float(odds.turn_odds(t, "one").p_beat) * 100, 1) for t in TARGETS],
    )
    return _svg(chart)


CHART_POLICY = {
    "default-src": ["'none'"],
    "script-src": ["'none'"],
    "style-src": ["'unsafe-inline'"],
}


@require_GET
def chart(request: HttpRequest, name: str) -> HttpResponse:
    """One chart as an SVG image. Its own CSP lets pygal's <style> apply and nothing else."""
    rules = read_query(request.GET).rules or RuleSet()
    if name == "totals":
        svg = totals_chart(rules)
    elif name == "targets":
        svg = targets_chart()
    else:
        raise Http404
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    # What django-csp's csp_replace decorator does (its typing takes views without arguments).
    response._csp_replace = CHART_POLICY  # type: ignore[attr-defined]
    patch_cache_control(response, max_age=3600)
    return response

"""Template filters for how the pages write things: lists of names, a name's possessive,
signed numbers and the dice; and the turn signal every game page carries."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

from django import template
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from games.cache import cached_row
from games.join_codes import join_code as game_join_code
from games.links import public_url
from games.models import Game
from games.names import join_names
from games.names import possessive as name_possessive
from games.web.common import turn_signal as game_turn_signal

register = template.Library()


@register.simple_tag
def join_code(game: Game) -> str:
    """{% join_code game as code %}: the short code a person types at /join to open it."""
    return game_join_code(game)


@register.simple_tag(takes_context=True)
def join_address(context: template.Context) -> str:
    """{% join_address as address %}: where to type a short code, as a person types it (this
    app's address without "http://")."""
    url = public_url(context["request"], reverse("join"))
    return url.split("://", 1)[-1]


@register.inclusion_tag("games/turn_signal.html")
def turn_signal(game: Game, my_seat: int | None = None, oob: bool = False) -> dict[str, Any]:
    """{% turn_signal game my_seat %}: whose move it is, for static/thirty.js to tell the
    phone whose turn it is (`my_seat`: this phone's seat, None for any other)."""
    return {"signal": game_turn_signal(game), "my_seat": my_seat, "oob": oob}


@register.simple_tag
def sheet_row(row: Hashable) -> str:
    """{% sheet_row row %}: one row of a dice sheet (games/sheet_row.html). A row never
    changes once written, so each is drawn once per process and language: a long game's
    page, drawn again after every turn, would otherwise draw every row again."""
    return cached_row(row, lambda: render_to_string("games/sheet_row.html", {"row": row}))


@register.filter
def and_list(names: Iterable[object]) -> str:
    """{{ names|and_list }}: "Anna, Ben and Cleo", in the reader's language."""
    return join_names([str(name) for name in names])


@register.filter
def possessive(name: object) -> str:
    """{{ name|possessive }}: "Anna’s", in Danish "Annas" or "Lars’" (games.names.possessive)."""
    return name_possessive(str(name))


@register.filter
def minus(number: object) -> str:
    """{{ value|minus }}: a negative number with a real minus sign (−3, not -3), as the
    row explanations write it. Exports keep plain numbers; this is for the pages only."""
    text = str(number)
    return "−" + text[1:] if text.startswith("-") else text


@register.filter
def percent(rate: object) -> str:
    """{{ fraction|percent }}: "67%" ("67 %" in Danish); a dash when there is nothing yet."""
    if rate is None:
        return "–"
    return gettext("%(percent)s%%") % {"percent": round(float(rate) * 100)}  # type: ignore[arg-type]


# Where the pips of each face sit on a die 60 units wide, as on real dice.
_LOW, _MID, _HIGH = 16, 30, 44
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((_MID, _MID),),
    2: ((_HIGH, _LOW), (_LOW, _HIGH)),
    3: ((_HIGH, _LOW), (_MID, _MID), (_LOW, _HIGH)),
    4: ((_LOW, _LOW), (_HIGH, _LOW), (_LOW, _HIGH), (_HIGH, _HIGH)),
    5: ((_LOW, _LOW), (_HIGH, _LOW), (_MID, _MID), (_LOW, _HIGH), (_HIGH, _HIGH)),
    6: ((_LOW, _LOW), (_HIGH, _LOW), (_LOW, _MID), (_HIGH, _MID), (_LOW, _HIGH), (_HIGH, _HIGH)),
}


# The SVG of every die the pages draw. Written here rather than included as a template: a
# host's or a seat's dice page draws twenty and more (the tray, each roll of the latest
# turns), and an include cost 0.13 ms each, a sixth of such a page.
_DIE = (
    '<svg class="die{}" viewBox="0 0 60 60" role="img" aria-label="{}">'
    '<rect x="2" y="2" width="56" height="56" rx="11"/>{}</svg>'
)


@register.simple_tag
def die(
    face: int, *, small: bool = False, fresh: bool = False, hit: bool = False, kept: bool = False
) -> SafeString:
    """{% die face small=True fresh=False hit=False kept=False %}: one die showing `face`;
    `fresh` rolls it in (static/thirty.css), `hit` and `kept` mark a hunt's hit and a die set
    aside."""
    marks = "".join(
        name
        for name, on in ((" small", small), (" hit", hit), (" rolling", fresh), (" kept", kept))
        if on
    )
    circles = "".join(f'<circle cx="{x}" cy="{y}" r="6"/>' for x, y in PIPS.get(face, ()))
    # The pips are the numbers of PIPS alone; `face` goes through format_html, escaped.
    return format_html(_DIE, marks, face, mark_safe(circles))

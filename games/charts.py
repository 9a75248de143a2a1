"""Pictures of a game: each player's line row by row, and a player's results over time.

The lines are added up from the stored cells, one row at a time, so any game written as rows
of cells is drawn the same way (`lines` takes the starting value and the direction the cells
move it): a dice game's points after each turn, the card game's tokens after each deal. Each
kind draws its own chart with `render` (`games.kinds.<kind>.charts`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Protocol

import pygal
from django.utils.translation import gettext as _
from pygal.style import Style

LABEL_CHARS = 14
# Dash patterns and markers: each line differs by more than its colour.
DASHES = ("", "8,4", "2,4", "10,4,2,4", "14,6", "4,4", "1,3", "12,3,3,3,3,3", "6,2", "3,6")
COLOURS = (
    "#1f5fa8",
    "#b3261e",
    "#1f7a4d",
    "#8a4fbf",
    "#b06000",
    "#00798c",
    "#6b4a2b",
    "#c2185b",
    "#44555f",
    "#5a7a00",
)


@dataclass(frozen=True)
class Line:
    """One player's line: the value after each row, None once they are out (the line ends)."""

    seat: int
    name: str
    values: tuple[int | None, ...]
    won: bool
    out: bool

    @property
    def colour(self) -> str:
        return colour(self.seat)

    @property
    def dashes(self) -> str:
        return dashes(self.seat, won=self.won)


class SeatKey:
    """A seat's entry in a chart's key: its line's colour, and dashes that set the winner's
    line apart. For the sheet's columns and the card table's seats alike."""

    position: int
    won: bool

    @property
    def colour(self) -> str:
        return colour(self.position)

    @property
    def dashes(self) -> str:
        return dashes(self.position, won=self.won)


class KeyedSeat(Protocol):
    @property
    def position(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def won(self) -> bool: ...
    @property
    def out(self) -> bool: ...


def key_entries(seats: Sequence[KeyedSeat]) -> tuple[tuple[int, str, bool, bool], ...]:
    """What a chart's key shows of each seat: its line (by place), its name and its mark
    (won, out). Two versions of a game with the same entries show the same key."""
    return tuple((seat.position, seat.name, seat.won, seat.out) for seat in seats)


def colour(seat: int) -> str:
    return COLOURS[seat % len(COLOURS)]


def dashes(seat: int, *, won: bool) -> str:
    """The winner's line is solid and thick; every other line has its own dashes."""
    return "" if won else DASHES[1 + seat % (len(DASHES) - 1)]


def lines(
    names: Sequence[str],
    start: int,
    direction: int,
    cell_rows: Sequence[Sequence[int]],
    is_out: Callable[[int], bool],
    winners: Sequence[int] = (),
) -> tuple[Line, ...]:
    """Each seat's value before the first row and after each row.

    `direction` is -1 when a cell takes from the value (Thirty's points left, a card game's
    tokens) and +1 when it adds to it (30s). A seat's line stops at the row that put it out.
    """
    current = [start] * len(names)
    series: list[list[int | None]] = [[start] for _ in names]
    gone = [False] * len(names)
    for cells in cell_rows:
        for seat, value in enumerate(cells):
            if gone[seat]:
                series[seat].append(None)
                continue
            current[seat] += direction * value
            series[seat].append(current[seat])
            gone[seat] = is_out(current[seat])
    return tuple(
        Line(seat, name, tuple(series[seat]), seat in winners, gone[seat])
        for seat, name in enumerate(names)
    )


# Sizes the chart is drawn at: a phone gets a narrower picture, so its text stays readable.
SIZES = {"wide": (760, 360), "narrow": (400, 300)}


def render(
    drawn: Sequence[Line],
    turns: int,
    size: str,
    *,
    x_title: str,
    y_title: str,
    top: int,
    no_data: str,
    whole_numbers: bool = False,
) -> str:
    width, height = SIZES[size]
    style = Style(
        background="#ffffff",
        plot_background="#ffffff",
        foreground="#1d2b36",
        foreground_strong="#1d2b36",
        foreground_subtle="#8c8577",
        guide_stroke_color="#e3ddd2",
        major_guide_stroke_color="#cfc8bb",
        guide_stroke_dasharray="0",
        major_guide_stroke_dasharray="0",
        opacity="1",
        opacity_hover="1",
        # Each line's colour twice: once for its line, once for the marker at its end.
        colors=tuple(line.colour for line in drawn) * 2,
        font_family="system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif",
        label_font_size=13,
        major_label_font_size=13,
        value_label_font_size=13,
        legend_font_size=14,
        title_font_size=15,
        tooltip_font_size=13,
        no_data_font_size=16,
    )
    labels = 12 if size == "wide" else 6  # row numbers along the bottom, at most
    values = [v for line in drawn for v in line.values if v is not None]
    chart = pygal.Line(
        style=style,
        width=width,
        height=height,
        explicit_size=True,
        js=(),  # drawn without scripts: the page's Content-Security-Policy allows none inline
        # The legend is the page's own (templates/games/chart.html), with each line's dashes.
        show_legend=False,
        css=(
            "file://style.css",
            "file://graph.css",
            "inline:.series .line{stroke-width:inherit !important;stroke-opacity:1 !important}",
        ),
        print_labels=True,
        print_values=False,
        dots_size=4,
        x_title=x_title,
        y_title=y_title,
        range=(min(0, *values), max(top, *values)),
        # A few tokens are counted in whole numbers: no line at 2.5 tokens.
        y_labels=list(range(0, top + 1)) if whole_numbers else None,
        include_x_axis=True,
        show_minor_x_labels=turns <= labels,
        x_labels_major_every=max(1, -(-turns // labels)) if turns > labels else None,
        truncate_label=-1,
        margin=12,
        margin_right=16 + 8 * max((len(label(line)) for line in drawn if line.won), default=0),
        spacing=12,
        no_data_text=no_data,
    )
    chart.x_labels = [str(number) for number in range(turns + 1)]
    # The lines without dots: pygal writes a dot (and its tooltip, which a picture never
    # shows) for every point it is asked to, three quarters of the picture's bytes in a long
    # game. Only the end of each line is marked, by a series of its own after all the lines.
    for line in drawn:
        chart.add(
            line.name,
            list(line.values),
            show_dots=False,
            stroke_style={
                "width": 5 if line.won else 2.5,
                "dasharray": line.dashes,
                "linecap": "round",
            },
            allow_interruptions=False,
        )
    for line in drawn:
        chart.add(line.name, _end_marker(line), stroke=False)
    svg: bytes = chart.render()
    return svg.decode()


def label(line: Line) -> str:
    name = line.name if len(line.name) <= LABEL_CHARS else line.name[: LABEL_CHARS - 1] + "…"
    return "★ " + name


def _end_marker(line: Line) -> list[dict[str, object] | None]:
    """The marker where a line ends, and the winner's name beside it: a point at the line's
    last value, nothing elsewhere. No marker on a line that has not left its start."""
    end = max((index for index, value in enumerate(line.values) if value is not None), default=0)
    points: list[dict[str, object] | None] = [None] * len(line.values)
    if end == 0:
        return points
    point: dict[str, object] = {"value": line.values[end], "node": {"r": 7 if line.won else 5}}
    if line.won:
        point["label"] = label(line)
    points[end] = point
    return points


def render_results(points: Sequence[tuple[datetime, Fraction]], size: str = "wide") -> str:
    """A player's share of games won after each finished game, as an SVG document."""
    return render_over_games(
        [(_("Games won (%)"), [round(float(rate) * 100) for _, rate in points])],
        size,
        y_title=_("Games won (%)"),
        x_title=_("Finished games"),
        no_data=_("No finished games yet"),
        value_range=(0, 100),
    )


def render_over_games(
    series: Sequence[tuple[str, Sequence[float]]],
    size: str = "wide",
    *,
    y_title: str,
    x_title: str,
    no_data: str,
    value_range: tuple[float, float] | None = None,
) -> str:
    """A player's figures game after game (one line each, in the chart's colours), as an SVG
    document: their share of games won, or their luck and skill."""
    width, height = SIZES[size]
    games = max((len(values) for _, values in series), default=0)
    chart = pygal.Line(
        style=Style(
            background="#ffffff",
            plot_background="#ffffff",
            foreground="#1d2b36",
            foreground_strong="#1d2b36",
            foreground_subtle="#8c8577",
            guide_stroke_color="#e3ddd2",
            major_guide_stroke_color="#cfc8bb",
            guide_stroke_dasharray="0",
            major_guide_stroke_dasharray="0",
            colors=COLOURS[: max(1, len(series))],
            font_family="system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif",
            label_font_size=13,
            major_label_font_size=13,
            title_font_size=15,
            legend_font_size=13,
            no_data_font_size=16,  # pygal's own size spills far out of a phone's picture
        ),
        width=width,
        height=height,
        explicit_size=True,
        js=(),
        show_legend=len(series) > 1,
        legend_at_bottom=True,
        css=(
            "file://style.css",
            "file://graph.css",
            "inline:.series .line{stroke-width:3px !important;stroke-opacity:1 !important}",
        ),
        range=value_range,
        y_title=y_title,
        x_title=x_title,
        dots_size=4,
        show_minor_x_labels=games <= 10,
        x_labels_major_every=max(1, -(-games // 10)) if games > 10 else None,
        truncate_label=-1,
        margin=12,
        no_data_text=no_data,
    )
    chart.x_labels = [str(number) for number in range(1, games + 1)]
    for label, values in series:
        chart.add(label, list(values))
    svg: bytes = chart.render()
    return svg.decode()

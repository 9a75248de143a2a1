"""Text contrast in the stylesheet: WCAG AA (4.5:1) for the colours axe cannot always reach,
such as the sheet's zeros on its coloured columns, in the light and the dark scheme."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = (Path(__file__).resolve().parents[2] / "static" / "thirty.css").read_text()


def palette(selector: str) -> dict[str, str]:
    block = CSS[CSS.index(selector) :]
    block = block[block.index("{") + 1 : block.index("}")]
    return dict(re.findall(r"--([a-z-]+):\s*(#[0-9a-f]{6})", block))


LIGHT = palette(":root {")
DARK = LIGHT | palette(':root[data-theme="dark"] {')


def luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


PAIRS = [
    ("faint", "card"),  # a zero on the sheet
    ("faint", "next-soft"),  # a zero in the column of who rolls next
    ("faint", "out"),  # a zero in the column of a player who is out
    ("muted", "card"),
    ("muted", "paper"),
    ("ink", "card"),
    ("ink", "paper"),
    ("on-head", "head"),
    ("on-head", "out-head"),
    ("good", "good-soft"),
    ("bad", "bad-soft"),
    ("accent-ink", "accent-soft"),
    ("on-ink", "ink"),
]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(("text", "background"), PAIRS)
def test_text_meets_wcag_aa(scheme: str, text: str, background: str) -> None:
    colours = LIGHT if scheme == "light" else DARK
    assert contrast(colours[text], colours[background]) >= 4.5


def test_the_zeros_stay_lighter_than_a_hit() -> None:
    assert luminance(LIGHT["faint"]) > luminance(LIGHT["ink"])
    assert luminance(DARK["faint"]) < luminance(DARK["ink"])


def test_the_dark_palette_is_the_same_for_the_system_and_the_switch() -> None:
    system = palette(':root:not([data-theme="light"]) {')
    assert system == palette(':root[data-theme="dark"] {')

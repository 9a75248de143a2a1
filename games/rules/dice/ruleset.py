"""Rule sets: a preset plus the variants a table agreed on, as one immutable value."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any, Literal

from ..errors import InvalidRulesError, gettext_noop

Preset = Literal["thirty", "30s"]
SetAside = Literal["any", "one"]
OnFailure = Literal["nothing", "one", "shortfall"]
EmptySeat = Literal["carry", "lost"]
HuntDice = Literal["six", "margin"]
End = Literal["last_standing", "first_out"]

PRESETS: tuple[Preset, ...] = ("thirty", "30s")
MIN_TARGET, MAX_TARGET = 30, 35
MIN_START_POINTS, MAX_START_POINTS = 1, 99
# 30s is always played to thirty, from nothing up to thirty.
THIRTY_S_LIMIT = 30

# The keys each preset accepts: a key that does not belong to the chosen preset is refused,
# so that a typo or a Thirty-only option on a 30s game is caught instead of ignored.
PRESET_KEYS: dict[Preset, tuple[str, ...]] = {
    "thirty": ("start_points", "target", "set_aside", "on_failure", "empty_seat", "hunt_dice"),
    "30s": (
        "set_aside",
        "end",
        "healing",
        "free_for_all",
        "weaker_attacks",
        "precise_elimination",
    ),
}

_CHOICES: dict[str, tuple[str, ...]] = {
    "set_aside": ("any", "one"),
    "on_failure": ("nothing", "one", "shortfall"),
    "empty_seat": ("carry", "lost"),
    "hunt_dice": ("six", "margin"),
    "end": ("last_standing", "first_out"),
}
_FLAGS = ("healing", "free_for_all", "weaker_attacks", "precise_elimination")


@dataclass(frozen=True)
class RuleSet:
    """Everything that decides how a dice game is scored.

    Fields that do not belong to the preset keep their defaults and mean nothing for it.
    """

    preset: Preset = "thirty"
    start_points: int = 30
    target: int = 30
    set_aside: SetAside = "any"
    on_failure: OnFailure = "nothing"
    empty_seat: EmptySeat = "carry"
    hunt_dice: HuntDice = "six"
    end: End = "last_standing"
    healing: bool = False
    free_for_all: bool = False
    weaker_attacks: bool = False
    precise_elimination: bool = False

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        """Build a rule set from a preset name plus overrides, refusing anything unknown."""
        if not isinstance(data, Mapping):
            raise InvalidRulesError(gettext_noop("The rules must be a set of named options."))
        preset = data.get("preset", "thirty")
        if preset not in PRESETS:
            raise InvalidRulesError(
                gettext_noop("There is no game called “%(preset)s”. Choose thirty or 30s."),
                preset=str(preset),
            )
        allowed = PRESET_KEYS[preset]
        overrides: dict[str, Any] = {}
        for key, value in data.items():
            if key == "preset":
                continue
            if key not in allowed:
                raise InvalidRulesError(
                    gettext_noop("The option “%(key)s” is not part of this game."), key=str(key)
                )
            overrides[key] = _checked(key, value)
        ruleset = replace(cls(preset=preset), **overrides)
        if ruleset.precise_elimination and ruleset.end == "first_out":
            # The shorter game ends when someone goes above 30, which precise elimination
            # never lets happen: the game could not end.
            raise InvalidRulesError(
                gettext_noop(
                    "Precise elimination needs the game played to the last player standing:"
                    " with the shorter game nobody could ever pass 30."
                )
            )
        return ruleset

    def to_dict(self) -> dict[str, Any]:
        """Every key of this preset, resolved: the shape the public API returns."""
        values = asdict(self)
        return {"preset": self.preset} | {key: values[key] for key in PRESET_KEYS[self.preset]}

    @property
    def counts_up(self) -> bool:
        """30s adds points up towards elimination; Thirty takes them off a starting number."""
        return self.preset == "30s"

    @property
    def beat_above(self) -> int:
        """A total strictly above this number beats the turn."""
        return THIRTY_S_LIMIT if self.counts_up else self.target


def _checked(key: str, value: Any) -> Any:
    if key in _CHOICES:
        if value not in _CHOICES[key]:
            raise InvalidRulesError(
                gettext_noop("“%(value)s” is not a choice for %(key)s."), value=str(value), key=key
            )
        return value
    if key in _FLAGS:
        if not isinstance(value, bool):
            raise InvalidRulesError(gettext_noop("%(key)s must be true or false."), key=key)
        return value
    if key == "target":
        if not _is_int(value) or not MIN_TARGET <= value <= MAX_TARGET:
            raise InvalidRulesError(
                gettext_noop("The target is a whole number from %(low)s to %(high)s."),
                low=MIN_TARGET,
                high=MAX_TARGET,
            )
        return value
    if key == "start_points":
        if not _is_int(value) or not MIN_START_POINTS <= value <= MAX_START_POINTS:
            raise InvalidRulesError(
                gettext_noop("Starting points are a whole number from %(low)s to %(high)s."),
                low=MIN_START_POINTS,
                high=MAX_START_POINTS,
            )
        return value
    raise AssertionError(f"no check for {key}")  # pragma: no cover - PRESET_KEYS and checks agree


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)

"""The create-game form: players in seat order, the game, and the rules with their variants,
whose fields each kind adds (`Kind.form`)."""

from __future__ import annotations

import copy
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import rules
from games.kinds import KINDS, Kind, kind_for_rules, seat_bounds
from games.lineups import Lineup
from games.names import PlayerNameError, clean_game_name, clean_player_names, default_game_name
from games.translate import rule_error_message

DEFAULT_PLAYERS = 4


class CreateGameForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name of the game"), max_length=80, required=False)
    # Every kind's games (`Kind.form_presets`), the first one chosen to begin with.
    preset = forms.ChoiceField(label=gettext_lazy("Game"), widget=forms.RadioSelect)

    def __init__(
        self,
        *args: Any,
        players: list[str] | None = None,
        computers: list[bool] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        # Each kind adds the fields of its rules, and shows them in its own fieldsets.
        for kind in KINDS.values():
            self.fields.update(copy.deepcopy(kind.form.base_fields))
        presets = [choice for kind in KINDS.values() for choice in kind.form_presets]
        preset = self.fields["preset"]
        assert isinstance(preset, forms.ChoiceField)
        preset.choices, preset.initial = presets, presets[0][0]
        self.kind_templates = [kind.form_template for kind in KINDS.values()]
        self.players = players if players is not None else [""] * DEFAULT_PLAYERS
        # Which rows the computer plays, in step with `players`.
        self.computers = computers if computers is not None else [False] * len(self.players)
        self.max_players = seat_bounds()[1]
        # Rows of the player list an error is about, to mark those fields.
        self.invalid_players: set[int] = set()
        self.cleaned_players: list[str] = []
        self.cleaned_computers: list[bool] = []
        # The kind of the game chosen and its rules as a dict (`Kind.form_rules`), once clean.
        self.kind: Kind | None = None
        self.rules_data: dict[str, Any] = {}
        # What the kinds' fieldsets show besides their fields (`Kind.form_extras`): the dice
        # games' estimate of how long a game takes.
        self.extras: dict[str, Any] = {}
        # The line-ups of recent games (games.lineups), offered above the player list.
        self.lineups: list[Lineup] = []

    @property
    def rows(self) -> list[tuple[str, bool]]:
        return list(zip(self.players, self.computers, strict=True))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        # Rows left empty are unused seats, not blank names; a name of only spaces is refused.
        # A computer's row left empty is still a seat: it gets a name of its own.
        self.players = _name_the_computers(self.players, self.computers)
        rows = [row for row, name in enumerate(self.players) if name != ""]
        try:
            self.cleaned_players = clean_player_names([self.players[row] for row in rows])
            self.cleaned_computers = [self.computers[row] for row in rows]
        except ValidationError as error:
            self.add_error(None, error)
            if isinstance(error, PlayerNameError):
                self.invalid_players = {rows[seat] for seat in error.seats}
        if self.errors:
            return data
        # The kind that plays the chosen game reads its rules from the form and checks them.
        self.kind = kind_for_rules({"preset": data.get("preset")})
        self.rules_data = self.kind.form_rules(data)
        try:
            self.kind.check(self.rules_data, len(self.cleaned_players))
        except rules.RuleError as error:
            raise ValidationError(rule_error_message(error)) from None
        return data

    def seats(self) -> list[tuple[str, bool]]:
        """The players in seat order, with whether the computer plays each seat."""
        return list(zip(self.cleaned_players, self.cleaned_computers, strict=True))

    def clean_name(self) -> str:
        return clean_game_name(self.cleaned_data.get("name", ""))

    def game_name(self) -> str:
        return self.cleaned_data.get("name", "").strip() or default_game_name(self.cleaned_players)


def _name_the_computers(players: list[str], computers: list[bool]) -> list[str]:
    """The names with every nameless computer seat named "Computer 1", "Computer 2"…, in
    the reader's language, skipping numbers a player already goes by."""
    taken = {name.strip().casefold() for name in players}
    named, number = [], 0
    for name, computer in zip(players, computers, strict=True):
        if computer and not name.strip():
            while True:
                number += 1
                name = _("Computer %(number)s") % {"number": number}
                if name.casefold() not in taken:
                    break
        named.append(name)
    return named

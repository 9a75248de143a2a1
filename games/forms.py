"""The create-game form: players in seat order and the rules with their variants."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import rules
from games.kinds import Kind, kind_for_rules
from games.lineups import Lineup
from games.names import PlayerNameError, clean_game_name, clean_player_names, default_game_name
from games.rules import cards
from games.rules import dice as dice_rules
from games.rules.dice.ruleset import MAX_START_POINTS, MAX_TARGET, MIN_START_POINTS, MIN_TARGET
from games.translate import rule_error_message

DEFAULT_PLAYERS = 4


class CreateGameForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name of the game"), max_length=80, required=False)
    preset = forms.ChoiceField(
        label=gettext_lazy("Game"),
        choices=[
            ("thirty", gettext_lazy("Thirty: points count down from a starting number")),
            ("30s", gettext_lazy("30s: points count up, 30 is out")),
            ("cards", gettext_lazy("Thirty, the card game: keep the total between 0 and 30")),
        ],
        initial="thirty",
        widget=forms.RadioSelect,
    )
    start_points = forms.IntegerField(
        label=gettext_lazy("Starting points"),
        min_value=MIN_START_POINTS,
        max_value=MAX_START_POINTS,
        initial=30,
        required=False,
        help_text=gettext_lazy("Fewer points make a shorter game."),
    )
    target = forms.TypedChoiceField(
        label=gettext_lazy("Target"),
        choices=[(t, str(t)) for t in range(MIN_TARGET, MAX_TARGET + 1)],
        coerce=int,
        initial=MIN_TARGET,
        required=False,
        help_text=gettext_lazy("A turn must total more than this. Raising it makes hits rarer."),
    )
    set_aside = forms.ChoiceField(
        label=gettext_lazy("Setting dice aside"),
        choices=[
            ("any", gettext_lazy("Keep as many dice as you like after each roll")),
            ("one", gettext_lazy("Exactly one die per roll: six rolls every turn")),
        ],
        initial="any",
        widget=forms.RadioSelect,
        required=False,  # the dice games only; an empty answer keeps the default
    )
    on_failure = forms.ChoiceField(
        label=gettext_lazy("A turn that fails"),
        choices=[
            ("nothing", gettext_lazy("Costs nothing")),
            ("one", gettext_lazy("Costs the roller one point")),
            ("shortfall", gettext_lazy("Costs the roller what they fell short by")),
        ],
        initial="nothing",
        widget=forms.RadioSelect,
        required=False,
    )
    empty_seat_lost = forms.BooleanField(
        label=gettext_lazy("Damage is lost at an empty seat"),
        required=False,
        help_text=gettext_lazy(
            "Points aimed at a player who is out disappear instead of going on to the next player."
        ),
    )
    table_dice = forms.BooleanField(
        label=gettext_lazy("Dice made by the whole table"),
        required=False,
        help_text=gettext_lazy(
            "For the dice the app rolls: every phone adds a secret of its own, so that nobody,"
            " the host included, can choose or foresee a die. A check page proves it at the end."
        ),
    )
    hunt_margin = forms.BooleanField(
        label=gettext_lazy("Hunt with as many dice as the margin"),
        required=False,
        help_text=gettext_lazy("Beat the target by three and you hunt with three dice, not six."),
    )
    first_out = forms.BooleanField(
        label=gettext_lazy("Shorter game"),
        required=False,
        help_text=gettext_lazy(
            "The game ends as soon as anyone goes above 30; the fewest points win."
        ),
    )
    healing = forms.BooleanField(
        label=gettext_lazy("Healing"),
        required=False,
        help_text=gettext_lazy(
            "Above 30 you may take the margin off your own points instead of attacking."
        ),
    )
    free_for_all = forms.BooleanField(
        label=gettext_lazy("Free for all"),
        required=False,
        help_text=gettext_lazy("Above 30 you attack any player still in, named before the hunt."),
    )
    weaker_attacks = forms.BooleanField(
        label=gettext_lazy("Weaker attacks"),
        required=False,
        help_text=gettext_lazy(
            "You may stop the hunt after any roll that found dice;"
            " a roll that finds none ends it with no damage."
        ),
    )
    precise_elimination = forms.BooleanField(
        label=gettext_lazy("Precise elimination"),
        required=False,
        help_text=gettext_lazy(
            "Only an attack landing exactly on 30 knocks a player out."
            " Points that would take a player to 30 or past it in any other way do nothing."
        ),
    )

    THIRTY_FIELDS = ("start_points", "target", "on_failure", "empty_seat_lost", "hunt_margin")
    THIRTY_S_FIELDS = (
        "first_out",
        "healing",
        "free_for_all",
        "weaker_attacks",
        "precise_elimination",
    )

    tokens = forms.IntegerField(
        label=gettext_lazy("Tokens each"),
        min_value=cards.MIN_TOKENS,
        max_value=cards.MAX_TOKENS,
        initial=5,
        required=False,
        help_text=gettext_lazy(
            "Each lost deal costs a token; the last player holding tokens wins."
        ),
    )
    fewer_jacks = forms.BooleanField(
        label=gettext_lazy("Two Jacks out"),
        required=False,
        help_text=gettext_lazy("One red and one black Jack leave the deck: wild cards are rarer."),
    )
    queens = forms.BooleanField(
        label=gettext_lazy("Two Queens in"),
        required=False,
        help_text=gettext_lazy(
            "A Queen doubles the total on her own colour and halves it on the other."
        ),
    )
    single_stock = forms.BooleanField(
        label=gettext_lazy("Single stock"),
        required=False,
        help_text=gettext_lazy(
            "When the stock runs out the deal ends, and every player still in loses a token."
        ),
    )

    def __init__(
        self,
        *args: Any,
        players: list[str] | None = None,
        computers: list[bool] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.players = players if players is not None else [""] * DEFAULT_PLAYERS
        # Which rows the computer plays, in step with `players`.
        self.computers = computers if computers is not None else [False] * len(self.players)
        self.max_players = dice_rules.MAX_PLAYERS
        # Rows of the player list an error is about, to mark those fields.
        self.invalid_players: set[int] = set()
        self.cleaned_players: list[str] = []
        self.cleaned_computers: list[bool] = []
        # The kind of the game chosen and its rules as a dict (`Kind.form_rules`), once clean.
        self.kind: Kind | None = None
        self.rules_data: dict[str, Any] = {}
        # How long a game under these rules takes (games.kinds.dice.chances), drawn under the rules.
        self.estimate: dict[str, Any] = {}
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

    @classmethod
    def initial_from(cls, ruleset: dice_rules.RuleSet) -> dict[str, Any]:
        """Form values that recreate a rule set: used by rematch and for editing."""
        return {
            "preset": ruleset.preset,
            "start_points": ruleset.start_points,
            "target": ruleset.target,
            "set_aside": ruleset.set_aside,
            "on_failure": ruleset.on_failure,
            "empty_seat_lost": ruleset.empty_seat == "lost",
            "hunt_margin": ruleset.hunt_dice == "margin",
            "first_out": ruleset.end == "first_out",
            "healing": ruleset.healing,
            "free_for_all": ruleset.free_for_all,
            "weaker_attacks": ruleset.weaker_attacks,
            "precise_elimination": ruleset.precise_elimination,
        }


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

"""The dice games' part of the create form: Thirty's starting points, target and variants,
30s's variants, how dice are set aside, and dice made by the whole table."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from games.rules import dice as dice_rules
from games.rules.dice.ruleset import MAX_START_POINTS, MAX_TARGET, MIN_START_POINTS, MIN_TARGET


class DiceRulesForm(forms.Form):
    """The fields the create form shows for Thirty and 30s (`games.forms.CreateGameForm`)."""

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

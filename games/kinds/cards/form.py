"""The card game's part of the create form: tokens each and the variants."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from games.rules import cards


class CardRulesForm(forms.Form):
    """The fields the create form shows for the card game (`games.forms.CreateGameForm`)."""

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

"""Rule errors in the reader's language: the rules give a template, this translates it."""

from __future__ import annotations

from django.utils.translation import gettext

from games.rules import RuleError


def rule_error_message(error: RuleError) -> str:
    template = gettext(error.template)
    return template % error.params if error.params else template

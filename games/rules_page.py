"""The rules page: how to play each game the app runs, how the sheet keeps score, every
variant, and how the app reads the points the rule texts leave open.

Each game is one section with a template of its own, which its kind names
(`Kind.rules_sections`), with the numbers it quotes (`Kind.rules_context`).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from games.kinds import KINDS


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    context = {"sections": [section for kind in KINDS.values() for section in kind.rules_sections]}
    for kind in KINDS.values():
        context |= kind.rules_context()
    return render(request, "rules.html", context)

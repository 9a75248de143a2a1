"""The rules package stays pure: nothing in it may import Django."""

from __future__ import annotations

import ast
from pathlib import Path

import games.rules

RULES_DIR = Path(games.rules.__file__).parent


def test_the_rules_import_nothing_from_django_or_the_app() -> None:
    offenders = []
    for path in sorted(RULES_DIR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            elif isinstance(node, ast.ImportFrom) and node.level > len(
                path.relative_to(RULES_DIR).parts
            ):
                # A relative import that climbs out of games.rules (e.g. `from ...models`).
                names = ["games" + "." * node.level + (node.module or "")]
            offenders += [
                f"{path.relative_to(RULES_DIR)}: {name}"
                for name in names
                if name.split(".")[0] in ("django", "games")
            ]
    assert offenders == []
    # The check really looked at the package, the card game's sub-package included.
    checked = {str(path.relative_to(RULES_DIR)) for path in RULES_DIR.rglob("*.py")}
    assert {
        "dice/game.py",
        "engine.py",
        "cards/game.py",
        "cards/deck.py",
        "cards/bot.py",
    } <= checked

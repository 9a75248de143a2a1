"""The public JSON API (see DESIGN.md), over the same store and rules as the pages.

- `base`: reading requests and answering them, every refusal as `{"error": sentence}`;
- `views`: the endpoints every kind shares (create, state, moves, seats, undo);
- `models`: the requests and answers as pydantic models, which also make `openapi`'s
  document, so the two cannot drift.

What belongs to one kind (how its moves are read from JSON, the dice odds) is in its package,
`games.kinds.<kind>.api`.
"""

"""The pages, for every kind of game: the generic views here ask the game's kind
(`games.kinds.kind_of`) for whatever differs, and never name a kind.

- `common`: what every view shares (the request type, the guard, numbers from a form, links);
- `home`: the create form, the history, renaming, deleting and restoring a game;
- `game`: the game's page shell, its live updates (`/live` and the event stream), and the one
  view every kind's moves are posted to;
- `seats`: the host's and the seats' links, claiming them, the QR code, rematch;
- `results`: the chart and the replay of a game, and a player's page across games;
- `transfer`: export and import.
"""

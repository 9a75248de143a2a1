"""Reading and writing games: the one place that turns rows of the database into rules
values and back. Views and the API both go through here, by the names this face hands on.

Every change runs in one transaction with the game row locked, checks the version the
client last saw, and bumps the version, so two phones can never record one roll twice.

- `locking`: the lock, the version check and the bump that every change shares.
- `sheet`: the rows and cells as stored, the position at a version, the running sums.
- `dice`: the dice games' writes: a game created or imported, typed and rolled turns, the
  computer seats' turns, undo.
- `seeds`: the secret seed each game's dice are rolled from, and a phone's part in them.
- `cards`: the card game's writes and reads: create, play a card, load the tournament.
- `seats`: what a seat's phone holds: its claimed key, its part in the table's dice.
- `games`: what no kind's rules see: rematch, switches, names, delete and restore.
- `errors`: what the store refuses.
"""

from games.store.cards import (
    Played,
    Player,
    card_deals,
    create_card_game,
    load_tournament,
    play_card,
)
from games.store.dice import (
    MAX_TURNS,
    Recorded,
    create_game,
    create_played_game,
    record_turn,
    roll,
    rolling_turn,
    undo_last_turn,
)
from games.store.errors import (
    BadKeyError,
    NotYourTurnError,
    SeatTakenError,
    StaleVersionError,
    TableDiceError,
    TurnInProgressError,
)
from games.store.games import (
    RESTORE_MINUTES,
    Merged,
    allow_seats_to_play,
    delete_game,
    merge_names,
    rematch_of,
    rename_game,
    restore_game,
    show_hints,
    start_rematch,
)
from games.store.seats import (
    claim_seat,
    join_table_dice,
    reissue_seat,
    reveal_table_secret,
    seat_joined,
)
from games.store.seeds import revealed_seed
from games.store.sheet import (
    Snapshot,
    StoredRow,
    cell_sums,
    load_cells,
    load_position,
    load_rows,
    load_snapshot,
    up_to,
)
from games.store.sheet import _add_up_position as _add_up_position  # read by its tests

__all__ = [
    "MAX_TURNS",
    "RESTORE_MINUTES",
    "BadKeyError",
    "Merged",
    "NotYourTurnError",
    "Played",
    "Player",
    "Recorded",
    "SeatTakenError",
    "Snapshot",
    "StaleVersionError",
    "StoredRow",
    "TableDiceError",
    "TurnInProgressError",
    "allow_seats_to_play",
    "card_deals",
    "cell_sums",
    "claim_seat",
    "create_card_game",
    "create_game",
    "create_played_game",
    "delete_game",
    "join_table_dice",
    "load_cells",
    "load_position",
    "load_rows",
    "load_snapshot",
    "load_tournament",
    "merge_names",
    "play_card",
    "record_turn",
    "reissue_seat",
    "rematch_of",
    "rename_game",
    "restore_game",
    "reveal_table_secret",
    "revealed_seed",
    "roll",
    "rolling_turn",
    "seat_joined",
    "show_hints",
    "start_rematch",
    "undo_last_turn",
    "up_to",
]

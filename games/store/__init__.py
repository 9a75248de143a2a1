"""Reading and writing games: the one place that turns rows of the database into rules
values and back. Views and the API both go through here, by the names this face hands on.

Every change runs in one transaction with the game row locked, checks the version the
client last saw, and bumps the version, so two phones can never record one roll twice.

- `locking`: the lock, the version check and the bump that every change shares.
- `sheet`: the rows and cells as stored, the position at a version, the running sums.
- `dice`: the dice games' writes, each a move of the log: a game created or imported, typed
  and rolled turns, the computer seats' turns, undo; and the turn in progress and the turns
  taken back, read from the log.
- `seeds`: the secret seed each game's dice are rolled from, and a phone's part in them.
- `moves`: the one path of a kind whose game is its seed and its move log (the card game):
  create, play a move (the computers' after it), the state at a version, the log once over.
- `seats`: what a seat's phone holds: its claimed key, its part in the table's dice.
- `games`: what no kind's rules see: rematch, switches, names, delete and restore.
- `errors`: what the store refuses.
"""

from games.store.dice import (
    MAX_TURNS,
    Recorded,
    create_game,
    create_played_game,
    record_turn,
    roll,
    rolling_turn,
    undo_last_turn,
    undone_turns,
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
    name_by_day,
    rematch_of,
    rename_game,
    restore_game,
    show_hints,
    start_rematch,
    take_rematch_seat,
)
from games.store.moves import (
    MAX_MOVES,
    Played,
    Player,
    finished_log,
    load_state,
    play,
    start_game,
)
from games.store.seats import (
    claim_seat,
    hand_seat_over,
    join_table_dice,
    open_seat_link,
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
    "MAX_MOVES",
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
    "cell_sums",
    "claim_seat",
    "create_game",
    "create_played_game",
    "delete_game",
    "finished_log",
    "hand_seat_over",
    "join_table_dice",
    "load_cells",
    "load_position",
    "load_rows",
    "load_snapshot",
    "load_state",
    "merge_names",
    "name_by_day",
    "open_seat_link",
    "play",
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
    "start_game",
    "start_rematch",
    "take_rematch_seat",
    "undo_last_turn",
    "undone_turns",
    "up_to",
]

"""Reading and writing games: the one place that turns rows of the database into rules
values and back. Views and the API both go through here, by the names this face hands on.

Every change runs in one transaction with the game row locked, checks the version the
client last saw, and bumps the version, so two phones can never record one roll twice.

- `locking`: the lock, the version check and the bump that every change shares.
- `moves`: the one path of every kind, whose game is its rules, its seed and its move log:
  create or import a game, play a move (the computers' after it), undo, the state at a
  version, the log once the game is over.
- `sheet`: the rows and cells as stored, and the running sums.
- `seeds`: the secret seed each game's chance is drawn from, and a phone's part in it.
- `table_rolls`: a roll of the dice the whole table makes, waiting for every phone's part.
- `seats`: what a seat's phone holds: its claimed key, its part in the table's dice.
- `games`: what no kind's rules see: rematch, switches, names, delete and restore.
- `errors`: what the store refuses.
"""

from games.store.errors import (
    BadKeyError,
    NotYourTurnError,
    RollWaitsError,
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
    game_and_rematch,
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
    MAX_TURNS,
    Played,
    Player,
    finished_log,
    import_game,
    load_state,
    play,
    start_game,
    take_back_step,
    undo,
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
from games.store.sheet import cell_sums, load_cells, read_seats, seats_at_version
from games.store.table_rolls import finish_waiting_roll, send_part

__all__ = [
    "MAX_MOVES",
    "MAX_TURNS",
    "RESTORE_MINUTES",
    "BadKeyError",
    "Merged",
    "NotYourTurnError",
    "Played",
    "Player",
    "RollWaitsError",
    "SeatTakenError",
    "StaleVersionError",
    "TableDiceError",
    "TurnInProgressError",
    "allow_seats_to_play",
    "cell_sums",
    "claim_seat",
    "delete_game",
    "finish_waiting_roll",
    "finished_log",
    "game_and_rematch",
    "hand_seat_over",
    "import_game",
    "join_table_dice",
    "load_cells",
    "load_state",
    "merge_names",
    "name_by_day",
    "open_seat_link",
    "play",
    "read_seats",
    "reissue_seat",
    "rematch_of",
    "rename_game",
    "restore_game",
    "reveal_table_secret",
    "revealed_seed",
    "seat_joined",
    "seats_at_version",
    "send_part",
    "show_hints",
    "start_game",
    "start_rematch",
    "take_back_step",
    "take_rematch_seat",
    "undo",
]

"""What a seat's phone is told of what the host did to its seat: a turn taken back. (A seat
taken from a phone, for a new link or the computer, is told through `Seat.lost_key_hash`.)"""

from __future__ import annotations

from games.models import Game, Seat


def tell_taken_back(game: Game, position: int, label: str) -> None:
    """Note that the host took back the seat's last turn (`label`, as the sheet showed it) at
    the game's version, under the caller's lock, so that the seat's phone is told once."""
    Seat.objects.filter(game=game, position=position, computer=False).update(
        taken_back_version=game.version, taken_back_label=label
    )

"""What is stored: games, their seats in order, each game's move log, and the sheet: its
rows (turns) and the cells of each row.

Only what the rules decided is stored. Points, who is out, whose turn it is and the winners
are derived from the cells, and a dice game's turn in progress and the turns taken back from
its move log (see `games.store`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from datetime import date

from django.db import models


def new_game_id() -> str:
    """72 random bits: a game's link is its only read permission, so it must not be guessable."""
    return secrets.token_urlsafe(9)


class GameIdConverter:
    """The part of an address that names a game (see thirty/urls.py)."""

    regex = "[A-Za-z0-9_-]{1,16}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


def new_key() -> str:
    return secrets.token_urlsafe(24)


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def seat_key(host_key: str, game_id: str, position: int, issue: int = 0) -> str:
    """A dice game's seat key, derived from the host key: the host can always show a seat's
    link again, while the server keeps neither key in clear. A dice seat hides nothing, so
    the host may hold what the seat holds. Card games made before claim links were random
    used it for their first links too (`issue` counted the links given since): those links
    can now only claim, see `games.claims`."""
    message = f"seat:{game_id}:{position}" + (f":{issue}" if issue else "")
    digest = hmac.new(host_key.encode(), message.encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()[:18]).decode()


class LiveGames(models.Manager["Game"]):
    """Games that have not been deleted: what every page and the API see."""

    def get_queryset(self) -> models.QuerySet[Game]:
        return super().get_queryset().filter(deleted_at__isnull=True)


class Game(models.Model):
    id = models.CharField(primary_key=True, max_length=16, default=new_game_id, editable=False)
    name = models.CharField(max_length=80)
    # For a game nobody named: what its name is made of ({"day", "players"}), so that every
    # reader sees it in their own language (`title`); `name` keeps it in its maker's.
    name_default = models.JSONField(null=True, blank=True)
    rules_data = models.JSONField()
    # Only a hash is kept, so neither the database nor a log line gives the key away.
    host_key_hash = models.CharField(max_length=64)
    # Goes up by one with every change; phones compare it to know whether to fetch anything.
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    rematch_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL)
    # Whether players may enter their own turns from their phones, with their seat's link.
    seats_play = models.BooleanField(default=True)
    # Which kind of game this is (games.kinds): the dice games, or the card game.
    kind = models.CharField(max_length=8, default="dice")
    # The SHA-256 of the game's secret seed, shown from the start (the seed is in `Secret`).
    seed_sha256 = models.CharField(max_length=64, blank=True, default="")
    # What the rules made of the last row, kept by `store` with every change so that the
    # history can filter thousands of games without adding up their cells.
    finished = models.BooleanField(default=False)
    turn_count = models.PositiveIntegerField(default=0)
    # Set when the host deletes the game; it can be restored for a few minutes.
    deleted_at = models.DateTimeField(null=True, blank=True)
    # How many moves the log keeps marked undone (`Move.undone_at`), so that a page reads them
    # only where there are any.
    undone_moves = models.PositiveSmallIntegerField(default=0)
    # Whether the roller's phone shows the odds of each choice (a per-game switch).
    hints = models.BooleanField(default=False)
    # Seeds shown when the game ended, before an undo reopened it with a fresh one
    # ({"seed", "seed_sha256"}): public, so that every earlier roll can still be checked.
    earlier_seeds = models.JSONField(default=list, blank=True)
    # The dice are made by the whole table: every roll mixes the server's seed with a part
    # of every phone at the table (`TablePart`, `RollPart`, `TableRoll`). Off by default.
    table_dice = models.BooleanField(default=False)

    everything = models.Manager()  # deleted games too: only for restoring them
    objects = LiveGames()

    class Meta:
        base_manager_name = "everything"
        default_manager_name = "objects"
        indexes = (
            models.Index(fields=["-created_at"], name="game_newest_first"),
            models.Index(
                fields=["-created_at"],
                name="game_played_newest_first",
                condition=models.Q(turn_count__gt=0, deleted_at__isnull=True),
            ),
        )

    def __str__(self) -> str:
        return self.name

    @property
    def title(self) -> str:
        """The game's name as the reader's pages show it: the one the host gave it, or for a
        game nobody named, its day and players in the reader's language."""
        if not self.name_default:
            return self.name
        from games.names import default_game_name  # names reads models: imported on use

        day = date.fromisoformat(str(self.name_default["day"]))
        return default_game_name([str(n) for n in self.name_default["players"]], day)

    @property
    def preset(self) -> str:
        """The game for the history and the players' pages: "thirty", "30s" or "cards"."""
        return str(self.rules_data.get("preset", "thirty"))

    def check_host_key(self, key: str | None) -> bool:
        if not key:
            return False
        return hmac.compare_digest(hash_key(key), self.host_key_hash)


class Seat(models.Model):
    game = models.ForeignKey(Game, related_name="seats", on_delete=models.CASCADE)
    position = models.PositiveSmallIntegerField()  # 0-based seat order
    name = models.CharField(max_length=40)  # as typed, NFC-normalised
    # The name as names are compared (`games.names.name_key`): unique within a game.
    name_key = models.TextField()
    # The hash of the key that acts as this seat: in the dice games the seat link's key (see
    # `seat_key`); in the card game the key a phone received when it claimed the seat, empty
    # until then, so that no link the host can show reads the seat's hand.
    key_hash = models.CharField(max_length=64, blank=True, default="")
    # The card game's claim link (`games.claims`): a random token that can only claim the
    # seat. Its hash checks it; it stays after the claim, so that a phone that lost the race
    # is told the seat is taken rather than counted as guessing.
    claim_hash = models.CharField(max_length=64, blank=True, default="")
    # The same token sealed under a key derived from the host key, so that only the host's
    # browser can show the link again and the database alone cannot claim any seat.
    claim_sealed = models.TextField(blank=True, default="")
    # When a phone first opened this seat's link: the host's page shows who has joined. In the
    # card game that phone has claimed the seat, and the link it opened no longer works.
    joined_at = models.DateTimeField(null=True, blank=True)
    # A computer plays this seat's moves itself.
    computer = models.BooleanField(default=False)
    # How many times the host gave this seat a new link (see `seat_key`).
    key_issue = models.PositiveSmallIntegerField(default=0)
    # After a rematch: the link of the same player's seat in the rematch, sealed so that only a
    # request holding this seat's key opens it (`games.claims.seal_for_seat`). The phone that
    # holds this seat then follows the table into the rematch in its own seat, with no new link.
    rematch_link = models.TextField(blank=True, default="")
    # The key this seat's phone held until the host took the seat from it (a new link, or the
    # computer), and why: that phone is told once what happened, instead of silently watching.
    lost_key_hash = models.CharField(max_length=64, blank=True, default="")
    lost_reason = models.CharField(max_length=10, blank=True, default="")
    # When a phone holding this seat last had the game's page open: its event stream says so
    # every heartbeat (`games.presence`), so the table sees who is here and whose phone slept.
    seen_at = models.DateTimeField(null=True, blank=True)
    # The host took back this seat's last turn at this version: its phone is told, once, by
    # the next update it gets (`games.web.game`), with the turn as the sheet showed it.
    taken_back_version = models.PositiveIntegerField(null=True, blank=True)
    taken_back_label = models.CharField(max_length=20, blank=True, default="")
    # The sum of this seat's cells, kept in the transaction that writes or removes a row, so
    # that the history and the players' pages read where a game stands (`Kind.standing`) in
    # one small query, however long the game.
    cell_sum = models.IntegerField(default=0)

    class Meta:
        ordering = ("position",)
        constraints = (
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["game", "name_key"], name="seat_name_key_unique"),
        )
        # A player's page and a merge find every seat of one name across all games.
        indexes = (models.Index(fields=["name_key"], name="seat_name_key"),)

    def __str__(self) -> str:
        return self.name


class Turn(models.Model):
    """One row of the sheet, for every kind of game: what one move (or one turn of moves)
    wrote in every seat's column (its `Cell`s), as the rules decided it: a dice turn's damage
    or points, a card deal's tokens given up."""

    game = models.ForeignKey(Game, related_name="turns", on_delete=models.CASCADE)
    number = models.PositiveIntegerField()  # 1-based, no gaps
    roller = models.PositiveSmallIntegerField()  # the seat the row is about: who rolled, who lost
    effect = models.CharField(max_length=10)  # what kind of row it is, in the kind's words
    # What else the kind says of the row (`SheetRow.data`): for a dice turn its total, hunt,
    # target, healing and victim and, for a turn the app rolled, every roll with the dice set
    # aside from it and the hunt's rolls (its audit trail). Empty for a card deal.
    data = models.JSONField(default=dict, blank=True)
    # Which seed was current when the row was written: an index into the game's earlier seeds,
    # then its current one, so that a checker re-derives every roll of a game that an undo
    # reopened. Null for rows written before it was kept for every row.
    seed_index = models.PositiveSmallIntegerField(null=True, blank=True)
    # Played by the computer for its seat: a seat the computer held from the start, or one
    # the host handed to it when its player left (the sheet marks these rows).
    by_computer = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("number",)
        constraints = (
            # The last line of defence against a turn recorded twice.
            models.UniqueConstraint(fields=["game", "number"], name="turn_number_unique"),
        )

    def __str__(self) -> str:
        return f"{self.game_id} #{self.number}"


class Cell(models.Model):
    """The number one row writes in one seat's column."""

    turn = models.ForeignKey(Turn, related_name="cells", on_delete=models.CASCADE)
    seat = models.ForeignKey(Seat, related_name="cells", on_delete=models.CASCADE)
    value = models.SmallIntegerField()

    class Meta:
        constraints = (models.UniqueConstraint(fields=["turn", "seat"], name="cell_unique"),)

    def __str__(self) -> str:
        return str(self.value)


class Secret(models.Model):
    """A game's secret seed: the deals (and the stock order) follow from it and the moves; in
    a dice game, every die the app rolls. Only `games.store` reads it; no page or answer shows
    it before the game is over.

    `state` is a cache, and only the store's: the game's state at `state_version` as its kind's
    engine writes it (a card game's includes the hands and the stock), so that any process
    resumes a game in constant time instead of replaying every move. It is read only under
    its version, never shown, and can be dropped at any time: the seed and the move log
    rebuild it."""

    game = models.OneToOneField(Game, related_name="secret", on_delete=models.CASCADE)
    seed = models.CharField(max_length=64)
    # The store's cache of the game's state at `state_version` (see the docstring).
    state = models.JSONField(null=True, blank=True)
    state_version = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"secret of {self.game_id}"

    def __repr__(self) -> str:
        return f"<Secret of {self.game_id}>"  # never the seed, so that no log line shows it


class Move(models.Model):
    """One move of a game's move log, in order, for every kind: a card played; a dice turn
    typed in, a step of a turn the app rolls with the dice that fell for it, or a computer's
    whole rolled turn with its rolls (the dice games' log). The log alone replays the game:
    chance is part of the move, or follows from the game's secret seed."""

    game = models.ForeignKey(Game, related_name="moves", on_delete=models.CASCADE)
    number = models.PositiveIntegerField()  # 1-based, no gaps
    seat = models.PositiveSmallIntegerField()
    # The move as its kind writes it: {"card": "AH", "value": 11}; {"total": 33, "hunt": 2,
    # "target": null, "heal": false}; {"roll": {"keep": [6, 5]}, "dice": [4, 1, 3]}.
    data = models.JSONField()
    # The sheet row this move closed (`Turn.number`), if it closed one.
    row = models.PositiveIntegerField(null=True, blank=True)
    # Made by the computer for its seat (a seat handed to it, or held from the start).
    by_computer = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # When the host took the move back (undo). It stays in the log, marked, so that the log
    # keeps every die anyone saw; a replay of the game skips it.
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("number",)
        constraints = (
            # The last line of defence against a move recorded twice.
            models.UniqueConstraint(fields=["game", "number"], name="move_number_unique"),
        )

    def __str__(self) -> str:
        return f"{self.game_id} move {self.number}"


class JoinCode(models.Model):
    """A short code a person can type to open a game (`games.join_codes`): for a laptop
    without a camera, or a phone whose camera fails. It opens what the game's link opens (the
    watcher's page), for a day."""

    code = models.CharField(primary_key=True, max_length=8)
    game = models.ForeignKey(Game, related_name="join_codes", on_delete=models.CASCADE)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = (models.Index(fields=["game", "-created_at"], name="join_code_newest"),)

    def __str__(self) -> str:
        return self.code


class TablePart(models.Model):
    """One phone's share in a game whose dice the whole table makes: the SHA-256 of a secret
    the phone keeps, shown to everyone before the first roll, and the secret once the phone
    reveals it at the end. Public, like every die."""

    game = models.ForeignKey(Game, related_name="table_parts", on_delete=models.CASCADE)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)  # null: the host's phone
    commitment = models.CharField(max_length=64)
    secret = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    # The phone's part did not come before a roll's wait ran out (asleep, or gone): the next
    # rolls do not wait for it, until the phone is back and says so by joining again.
    asleep = models.BooleanField(default=False)

    class Meta:
        ordering = ("created_at",)
        constraints = (
            models.UniqueConstraint(fields=["game", "seat"], name="table_part_per_seat"),
            models.UniqueConstraint(
                fields=["game"], condition=models.Q(seat__isnull=True), name="table_part_host"
            ),
        )

    def __str__(self) -> str:
        return f"{self.game_id} part of {self.seat}"


class RollPart(models.Model):
    """One phone's part of a roll of a game whose dice the whole table makes: HMAC-SHA256
    under the phone's secret of the roll's label (`games.rules.chance.roll_label`), which every
    phone but the roller's sends once the roll has been asked for (`WaitingRoll`). The roll
    mixes in every part sent before its wait ran out (`TableRoll.parts`)."""

    game = models.ForeignKey(Game, related_name="roll_parts", on_delete=models.CASCADE)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)  # null: the host's phone
    label = models.CharField(max_length=40)
    part = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["game", "label", "seat"], name="roll_part_per_seat"),
            models.UniqueConstraint(
                fields=["game", "label"],
                condition=models.Q(seat__isnull=True),
                name="roll_part_host",
            ),
        )

    def __str__(self) -> str:
        return f"{self.game_id} {self.label} part of {self.seat}"


class WaitingRoll(models.Model):
    """A roll asked for in a game whose dice the whole table makes, waiting for the other
    phones' parts: the move as the roller chose it (what to keep, whom to attack) is fixed
    before any other phone makes its part, so that nobody, the host and the server included,
    knows the dice while a choice can still change. The roll is made once every awake phone's
    part has come, or its wait has run out (`games.store.table_rolls`)."""

    game = models.OneToOneField(
        Game, primary_key=True, related_name="waiting_roll", on_delete=models.CASCADE
    )
    label = models.CharField(max_length=40)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)  # who asked; null: host
    part = models.CharField(max_length=64)  # the roller's own part
    move = models.JSONField()  # as the kind writes a move (`Engine.write_move`)
    asked_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.game_id} {self.label} waiting"


class TableRoll(models.Model):
    """One roll of a table's dice: the label it was made for, the phone whose request rolled
    it, and every phone's part that went into it, in the order they were mixed. With the
    revealed secrets, anyone checks each part, then the dice."""

    game = models.ForeignKey(Game, related_name="table_rolls", on_delete=models.CASCADE)
    number = models.PositiveIntegerField()  # the turn
    step = models.PositiveSmallIntegerField()  # the roll within it, the hunt's counted after
    seat = models.PositiveSmallIntegerField(null=True, blank=True)  # who asked; null: host
    label = models.CharField(max_length=40)
    # [{"seat": 0 or None for the host's phone, "part": hex}], the host's first, then by
    # seat; empty for a roll of the server's seed alone.
    parts = models.JSONField(default=list)

    class Meta:
        ordering = ("number", "step")
        constraints = (
            models.UniqueConstraint(fields=["game", "number", "step"], name="table_roll_unique"),
        )

    def __str__(self) -> str:
        return f"{self.game_id} #{self.number} roll {self.step}"


class WrongGuesses(models.Model):
    """How many wrong passwords or keys one client sent in one window of the guess limit
    (games/guesses.py). A row in the database, counted up in one UPDATE: every process shares
    it, a restart keeps it, and guesses sent at the same moment are all counted."""

    client = models.CharField(max_length=45)  # an address, or an IPv6 network
    window = models.PositiveBigIntegerField()  # which window: seconds since the epoch // length
    count = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = (
            models.UniqueConstraint(fields=["client", "window"], name="wrong_guesses_unique"),
        )

    def __str__(self) -> str:
        return f"{self.client}: {self.count} in window {self.window}"

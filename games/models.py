"""What is stored: games, their seats in order, the turns (rows) and the cells of each row.

Only what the rules decided is stored. Points, who is out, whose turn it is and the winners
are derived from the cells (see `games.store`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from django.db import models
from django.db.models.functions import Lower

from games.rules import RuleSet


def new_game_id() -> str:
    """72 random bits: a game's link is its only read permission, so it must not be guessable."""
    return secrets.token_urlsafe(9)


def new_key() -> str:
    return secrets.token_urlsafe(24)


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def seat_key(host_key: str, game_id: str, position: int) -> str:
    """A seat's key, derived from the host key: the host can always show a seat's link
    again, while the server keeps neither key in clear."""
    digest = hmac.new(host_key.encode(), f"seat:{game_id}:{position}".encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()[:18]).decode()


class LiveGames(models.Manager["Game"]):
    """Games that have not been deleted: what every page and the API see."""

    def get_queryset(self) -> models.QuerySet[Game]:
        return super().get_queryset().filter(deleted_at__isnull=True)


class Game(models.Model):
    id = models.CharField(primary_key=True, max_length=16, default=new_game_id, editable=False)
    name = models.CharField(max_length=80)
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
    # What the rules made of the last row, kept by `store` with every change so that the
    # history can filter thousands of games without adding up their cells.
    finished = models.BooleanField(default=False)
    turn_count = models.PositiveIntegerField(default=0)
    # Set when the host deletes the game; it can be restored for a few minutes.
    deleted_at = models.DateTimeField(null=True, blank=True)

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
    def kind(self) -> str:
        """The game's kind for the history: "thirty" or "30s" (and later the card game)."""
        return str(self.rules_data.get("preset", "thirty"))

    @property
    def rules(self) -> RuleSet:
        return RuleSet.from_dict(self.rules_data)

    def check_host_key(self, key: str | None) -> bool:
        if not key:
            return False
        return hmac.compare_digest(hash_key(key), self.host_key_hash)


class Seat(models.Model):
    game = models.ForeignKey(Game, related_name="seats", on_delete=models.CASCADE)
    position = models.PositiveSmallIntegerField()  # 0-based seat order
    name = models.CharField(max_length=40)
    # The hash of this seat's key (see `seat_key`): only the seat's phone holds the key.
    key_hash = models.CharField(max_length=64, blank=True, default="")
    # When a phone first opened this seat's link: the host's page shows who has joined.
    joined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("position",)
        constraints = (
            models.UniqueConstraint(fields=["game", "position"], name="seat_position_unique"),
            models.UniqueConstraint("game", Lower("name"), name="seat_name_unique_ci"),
        )

    def __str__(self) -> str:
        return self.name


class Turn(models.Model):
    """One row of the sheet: what the roller reported and what the rules made of it."""

    game = models.ForeignKey(Game, related_name="turns", on_delete=models.CASCADE)
    number = models.PositiveIntegerField()  # 1-based, no gaps
    roller = models.PositiveSmallIntegerField()  # seat position
    total = models.PositiveSmallIntegerField()
    hunt = models.PositiveSmallIntegerField(null=True, blank=True)
    target = models.PositiveSmallIntegerField(null=True, blank=True)  # free for all
    heal = models.BooleanField(default=False)
    effect = models.CharField(max_length=10)
    victim = models.PositiveSmallIntegerField(null=True, blank=True)
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

"""Seeds and the chance drawn from them, for every kind of game: the deals and restocks of
the card game and the dice the app rolls come from one secret seed per game, whose SHA-256 is
public from the start and the seed itself once the game is over."""

from __future__ import annotations

import hashlib
import random
import secrets

from .errors import InvalidRulesError, gettext_noop

Seed = bytes | str


def new_seed() -> str:
    """A fresh secret seed, as 32 hex digits."""
    return secrets.token_hex(16)


def seed_bytes(seed: Seed) -> bytes:
    """The seed as bytes: a `str` is read as hex."""
    if isinstance(seed, bytes):
        return seed
    try:
        return bytes.fromhex(seed)
    except ValueError:
        raise InvalidRulesError(gettext_noop("The seed must be written in hex digits.")) from None


def seed_sha256(seed: Seed) -> str:
    """The public commitment to a seed: SHA-256 of its bytes, in hex."""
    return hashlib.sha256(seed_bytes(seed)).hexdigest()


def rng(seed: Seed, label: str) -> random.Random:
    """The generator for one chance event, named by `label` (a deal, a restock, a roll): each
    event's draws depend on the seed and its label alone, so anyone given the seed can draw
    any of them again, in any order."""
    return random.Random(hashlib.sha256(seed_bytes(seed) + label.encode()).digest())

"""Seeds and the chance drawn from them, for every kind of game: the deals and restocks of
the card game and the dice the app rolls come from one secret seed per game, whose SHA-256 is
public from the start and the seed itself once the game is over."""

from __future__ import annotations

import hashlib
import hmac
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


# -- dice made by the whole table ---------------------------------------------------------
# Each phone at the table keeps a secret of its own and shows its SHA-256 before the first
# roll. For each roll, each phone makes a part: HMAC-SHA256 under that secret of the roll's
# label, which names the roll's place in the game (`roll_label`), so that nothing but the game
# moving on gives a roll other parts. The phone whose roll it is sends its part with the
# roll, its choice fixed; every other phone sends its part only then, while the roll waits
# (`games.store.table_rolls`). The dice come from the server's seed and every part that
# came before the roll was made, together, in a fixed order
# (`mixed`; `games.rules.dice.rolled.table_dice`). At the end the secrets are shown, and
# every part and every die can be checked.


def is_digest(text: str) -> bool:
    """Whether `text` is a SHA-256 (or HMAC-SHA256) written as 64 lower-case hex digits: a
    commitment or a part, as a phone sends it."""
    return len(text) == 64 and all(c in "0123456789abcdef" for c in text)


def commitment(secret: Seed) -> str:
    """What a phone shows before the first roll: the SHA-256 of its secret."""
    return seed_sha256(secret)


def roll_label(turn: int, rolls: int) -> str:
    """The label of the next roll, when turn number `turn` has had `rolls` rolls so far: a
    turn the app rolled is never rolled again (the undo policy), so each label names one roll
    (and the computers' turns that a request at it leads to), whatever else changes."""
    return f"t:{turn}:{rolls}"


def table_part(secret: Seed, label: str) -> str:
    """A phone's part of one roll, in hex."""
    message = f"thirty:part:{label}".encode()
    return hmac.new(seed_bytes(secret), message, hashlib.sha256).hexdigest()


def mixed(seed: Seed, *parts: Seed) -> bytes:
    """The key of a roll's dice: the seed and every part, in the order the roll keeps them.
    With one part or none this is what the table's dice were before every phone took part."""
    return hashlib.sha256(seed_bytes(seed) + b"".join(seed_bytes(part) for part in parts)).digest()


def block(key: bytes, label: str) -> bytes:
    return hashlib.sha256(key + label.encode()).digest()


# -- dice ----------------------------------------------------------------------------------

SIDES = 6


def seeded_dice(seed: bytes, turn: int, step: int, count: int) -> tuple[int, ...]:
    """The dice of roll `step` of turn number `turn`, from the game's secret seed: anyone given
    the seed after the game can roll every turn again and compare."""
    draws = rng(seed, f":turn:{turn}:roll:{step}")
    return tuple(draws.randint(1, SIDES) for _ in range(count))


def table_dice(seed: bytes, part: bytes, turn: int, step: int, count: int) -> tuple[int, ...]:
    """The dice of a roll in a game whose dice the whole table makes: the server's secret seed
    mixed with the phones' parts of the roll (`table_part`), joined in the order the roll
    keeps them. Neither alone decides a die, and all are shown once the game is over, so
    anyone can roll again.

    Drawn from SHA-256 blocks rather than Python's generator, so that the check page can roll
    every turn again in the browser: a byte below 252 gives the die `byte % 6 + 1` (252 is the
    largest multiple of six a byte holds, so every face is equally likely)."""
    key = mixed(seed, part)
    dice: list[int] = []
    index = 0
    while len(dice) < count:
        for byte in block(key, f":turn:{turn}:roll:{step}:{index}"):
            if byte < 252 and len(dice) < count:
                dice.append(byte % SIDES + 1)
        index += 1
    return tuple(dice)

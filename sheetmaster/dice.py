"""Seeded, logged dice.

Every roll goes through :meth:`Dice.roll`, which records who rolled, why, the die and the value
as an :class:`~sheetmaster.model.Event`. Values come from BLAKE2b over (seed, roll number), so
they do not depend on the Python version or on anything but the seed and the order of rolls.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable


def turn_seed(game_seed: str, turn: int) -> int:
    """The dice seed of one turn: derived from the game's seed and the turn number."""
    digest = hashlib.sha256(f"sheetmaster:{game_seed}:{turn}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


class Dice:
    """Deterministic dice for one turn."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._count = 0
        self.on_roll: Callable[[str, str, int, int], None] | None = None

    def _draw(self, sides: int) -> int:
        # Rejection sampling keeps every face equally likely.
        limit = (1 << 64) - ((1 << 64) % sides)
        while True:
            self._count += 1
            data = self.seed.to_bytes(8, "big") + self._count.to_bytes(8, "big")
            n = int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big")
            if n < limit:
                return n % sides + 1

    def roll(self, sides: int, who: str, why: str) -> int:
        """Roll one die with ``sides`` faces for ``who``, logging ``why``."""
        value = self._draw(sides)
        if self.on_roll is not None:
            self.on_roll(who, why, sides, value)
        return value


class ScriptedDice(Dice):
    """Dice that return given values in order: for golden turn tests."""

    def __init__(self, values: Iterable[int], seed: int = 0) -> None:
        super().__init__(seed)
        self._values = list(values)
        self._next = 0

    def _draw(self, sides: int) -> int:
        if self._next >= len(self._values):
            raise AssertionError(f"the test scripted {len(self._values)} dice, more were rolled")
        value = self._values[self._next]
        self._next += 1
        if not 1 <= value <= sides:
            raise AssertionError(f"scripted die value {value} does not fit a d{sides}")
        return value

    @property
    def unused(self) -> list[int]:
        return self._values[self._next :]

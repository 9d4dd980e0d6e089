"""Where the fuzzer's generators get their choices: a seeded ``random.Random`` or hypothesis."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

# -- choosing: the same generators from random.Random or from hypothesis ---------------------


class Chooser:
    """Where generators get their choices from."""

    def integer(self, lo: int, hi: int) -> int:
        raise NotImplementedError

    def choice(self, options: Sequence[Any]) -> Any:
        return options[self.integer(0, len(options) - 1)]

    def chance(self, percent: int) -> bool:
        """True ``percent`` times in 100 (under hypothesis: shrinks towards False)."""
        return self.integer(0, 99) >= 100 - percent

    def subset(self, options: Sequence[Any], percent: int) -> list[Any]:
        return [o for o in options if self.chance(percent)]


class RandomChooser(Chooser):
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def integer(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)


class DrawChooser(Chooser):
    """Choices drawn by hypothesis, so a failing example shrinks."""

    def __init__(self, draw: Callable[[Any], Any]) -> None:
        from hypothesis import strategies as st

        self.draw = draw
        self.st = st

    def integer(self, lo: int, hi: int) -> int:
        return self.draw(self.st.integers(lo, hi))

"""Modifier arithmetic: percentages on a whole amount, and chains of factors on an exact one.

Percentages that change one number add up before they apply (-10% and -10% make -20%), and
the result is rounded down; factors (x 0.75, x 0.5) multiply one after the other, exactly.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal

#: (why, percent) pairs, e.g. [("Silk", 30), ("Tea", 10)].
Parts = list[tuple[str, int]]


def add_percent(base: int, percent: int) -> int:
    """``base`` changed by ``percent`` (+30, -20), rounded down to a whole number."""
    return base * (100 + percent) // 100


def total_percent(parts: Sequence[tuple[str, int]]) -> int:
    return sum(p for _, p in parts)


def with_parts(base: int, parts: Sequence[tuple[str, int]]) -> int:
    """``base`` changed by every percentage of ``parts``, added up first."""
    return add_percent(base, total_percent(parts))


def describe(parts: Sequence[tuple[str, int]]) -> str:
    """'Silk +30%, Tea +10%'."""
    return ", ".join(f"{why} {pct:+d}%" for why, pct in parts)


def scaled(base: Decimal | int, factors: Iterable[Decimal | int | str]) -> Decimal:
    """``base`` times each factor in turn, exactly (quarters, eighths...)."""
    out = Decimal(base)
    for factor in factors:
        out *= Decimal(factor)
    return out

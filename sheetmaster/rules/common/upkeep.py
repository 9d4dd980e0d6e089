"""Upkeep that disbands until paid: units a treasury cannot keep are disbanded, the last
listed first, until the upkeep of the rest can be paid."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def disband_until_paid(units: Sequence[T], cost: Callable[[T], int], money: int
                       ) -> tuple[list[T], list[T], int]:
    """(kept, disbanded, upkeep of the kept): units are disbanded from the end of ``units``
    until the upkeep of the rest is at most ``money``."""
    kept = list(units)
    upkeep = sum(cost(u) for u in kept)
    disbanded: list[T] = []
    while kept and upkeep > money:
        unit = kept.pop()
        upkeep -= cost(unit)
        disbanded.append(unit)
    return kept, disbanded, upkeep


def disbanded_count(count: int, each: int, money: int) -> int:
    """How many of ``count`` like units (each costing ``each``) must go so that ``money``
    covers the rest: the same rule for units kept as a number, not one a row."""
    if each <= 0 or count * each <= money:
        return 0
    return count - max(money, 0) // each

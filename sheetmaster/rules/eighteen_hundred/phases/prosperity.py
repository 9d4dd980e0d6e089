"""The prosperity track: "a place to track your prosperity" on each play mat (L8). It moves
only by cards and food technologies, and never falls below 0 (F60)."""

from __future__ import annotations

from ..world import Ctx


def adjust_prosperity(ctx: Ctx, nation: str, change: int, why: str) -> None:
    """Move ``nation``'s prosperity by ``change`` (never below 0), and log it with ``why``."""
    n = ctx.world.nations[nation]
    was, n.prosperity = n.prosperity, max(0, n.prosperity + change)
    floor = ", never below 0" if was + change < 0 else ""
    ctx.emit(nation, "prosperity", f"{nation}'s prosperity {was} -> {n.prosperity} "
             f"({change:+d}: {why}{floor})")

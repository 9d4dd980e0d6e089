"""At most so many order rows from one player a turn: the rest are rejected, unread.

Anyone who can edit the Orders tab can paste 100,000 rows into it. Each row is read and
answered, but only the first ``order rows per player`` rows (a Game tab setting, default
:data:`~sheetmaster.kit.tabs.DEFAULT_CAP`) that one player posts in a turn go on to the
phases; the later ones, in posting order (the sheet's row order), are rejected with
:data:`~sheetmaster.kit.reasons.OVER_CAP` and reach no phase, so a flood costs a turn what
the cap costs it. Rows that name no player of the game (a typo, or a flood under made-up
names) share one cap between them.

What counts is every row the turn reads: accepted orders and rejected rows alike (a flood of
malformed rows is still a flood), but not the rows of earlier turns nor the rows posted after
the deadline, which wait for the next turn. The GM's orders tab is the GM's: it has no cap.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from itertools import chain

from sheetmaster.engine.order_reading import ParsedOrders
from sheetmaster.kit import reasons, values
from sheetmaster.kit.model import OrderResult, Status
from sheetmaster.kit.tabs import ORDER_CAP as SETTING

#: what the rows naming no player of the game are counted under.
NOBODY = ""


def over_cap_reason(cap: int) -> str:
    """The reason every row over the cap is given (one text, so reports can gather them)."""
    return reasons.OVER_CAP.say(cap=cap, setting=SETTING)


def cap_rows(parsed: ParsedOrders, cap: int, players: values.Names) -> dict[str, int]:
    """Reject the rows each player posted after their first ``cap`` this turn (``players``:
    the game's, to tell a row that names one from a row that names nobody). Works on the
    Orders tab's reading alone (positive rows). Returns the rows rejected per player."""
    batches = [b for b in parsed.batches.values() if len(b)]
    if sum(map(len, batches)) + len(parsed.rejected) <= cap:
        return {}  # every turn but a flood
    known = players.exact_get

    def whose(name: str) -> str:
        return name if known(name) == name else NOBODY

    counts = Counter(chain(chain.from_iterable(b.players for b in batches),
                           (whose(r.player) for r in parsed.rejected)))
    flooding = {p for p, n in counts.items() if n > cap}
    if not flooding:
        return {}
    rows: dict[str, list[int]] = {p: [] for p in flooding}
    for batch in batches:
        for row, player in zip(batch.rows, batch.players):
            if player in flooding:
                rows[player].append(row)
    for r in parsed.rejected:
        who = whose(r.player)
        if who in flooding:
            rows[who].append(r.row)
    over = {row for found in rows.values() for row in sorted(found)[cap:]}
    _reject(parsed, over, over_cap_reason(cap))
    return {p: len(found) - cap for p, found in rows.items()}


def _reject(parsed: ParsedOrders, over: set[int], reason: str) -> None:
    """The rows ``over`` rejected with ``reason``: taken out of their batches (no phase sees
    them), and the rows already rejected given this reason instead of their own."""
    for batch in parsed.batches.values():
        dropped = [i for i, row in enumerate(batch.rows) if row in over]
        if dropped:
            parsed.rejected += [OrderResult(batch.rows[i], batch.players[i], batch.kind,
                                            Status.REJECTED, reason) for i in dropped]
            batch.drop(dropped)
    parsed.rejected = [replace(r, reason=reason) if r.row in over and r.reason != reason
                       else r for r in parsed.rejected]
    parsed.rejected_rows = [r for r in parsed.rejected_rows if r.row not in over]


def gathered(results: list[OrderResult], reason: str) -> tuple[list[OrderResult], Mapping[
        str, list[int]]]:
    """``results`` without the rows over the cap (those given ``reason``), and those rows by
    player: what a report lists row by row, and what it sums up in one line per player."""
    if not reason or not any(r.reason == reason for r in results):
        return results, {}
    kept: list[OrderResult] = []
    over: dict[str, list[int]] = {}
    for r in results:
        if r.reason == reason and r.status is Status.REJECTED:
            over.setdefault(r.player, []).append(r.row)
        else:
            kept.append(r)
    return kept, over


__all__ = ["SETTING", "cap_rows", "gathered", "over_cap_reason"]

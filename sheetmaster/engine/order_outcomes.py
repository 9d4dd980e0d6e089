"""What becomes of the orders around the phases: the ones this turn may not take, refused
before any phase runs; every result put in sheet order; the Orders tab written back with each
row's result and reason."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np
import pandas as pd

from sheetmaster.kit import reasons
from sheetmaster.kit.calendar import Date
from sheetmaster.kit.model import OrderResult, Status
from sheetmaster.kit.order_batch import OrderBatch
from sheetmaster.kit.orders import REASON, RESULT, TURN
from sheetmaster.kit.ruleset import Ruleset


def when(date: Date) -> str:
    """What this turn is, for a reason: 'round 3's turns stage', 'Spring', 'turn 4'."""
    if date.stage:
        return f"round {date.round}'s {date.stage} stage (the Game tab's 'stage')"
    return date.season or f"turn {date.turn}"


def refuse_out_of_turn(ruleset: Ruleset, date: Date, batches: dict[str, OrderBatch]
                       ) -> set[int]:
    """Refuse the orders this turn may not take: the setup turn takes setup orders only,
    other turns none of them; GM-only kinds come from the GM's tab alone. Returns their
    rows."""
    setup_kinds = [k.name for k in ruleset.order_kinds if k.setup]
    refused: set[int] = set()
    for kind in ruleset.order_kinds:
        batch = batches.get(kind.name)
        if not batch:
            continue
        reason = ""
        if date.setup and not kind.setup:
            reason = reasons.SETUP_ONLY.say(kinds=", ".join(setup_kinds)) if setup_kinds \
                else reasons.NO_SETUP_ORDERS.say()
        elif kind.setup and not date.setup:
            reason = reasons.NOT_SETUP.say(kind=kind.name)
        if reason:
            out = list(range(len(batch)))
        elif kind.gm_only:
            out = [i for i, row in enumerate(batch.rows) if row > 0]  # not from the GM's tab
            reason = reasons.GM_ONLY.say(kind=kind.name)
        else:
            continue
        batch.resolve_each(out, Status.REJECTED, reason)
        refused.update(batch.rows[i] for i in out)
    return refused


def secret_orders(ruleset: Ruleset, world: Any, batches: dict[str, OrderBatch]
                  ) -> dict[str, bool | list[bool]]:
    """Which of this turn's orders are secret, kind by kind: one flag for the whole kind, or
    one per order where the kind says which (``OrderKind.secret_when``). Decided before any
    phase runs, from what each order says and what everyone may know, never from what it
    finds: whether a row is private then tells nothing. (A row refused while being read is
    secret if its kind is: its reason is about what it says.)"""
    out: dict[str, bool | list[bool]] = {}
    for kind in ruleset.order_kinds:
        batch = batches.get(kind.name)
        if kind.secret or kind.secret_when is None or not batch:
            out[kind.name] = kind.secret
        else:
            out[kind.name] = [bool(kind.secret_when(world, order.fields))
                              for order in batch.orders()]
    return out


def in_sheet_order(results: list[OrderResult]) -> list[OrderResult]:
    """The results by row: the Orders tab's, then the GM orders tab's (negative rows: -5 is
    its row 5)."""
    rows = np.fromiter(map(_row, results), dtype=np.int64, count=len(results))
    rows[rows < 0] = _GM_ROWS - rows[rows < 0]
    found = np.empty(len(results), dtype=object)
    found[:] = results
    return found[np.argsort(rows, kind="stable")].tolist()


#: what the GM orders tab's rows sort as (after any row of the Orders tab).
_GM_ROWS = 1 << 40


def orders_after(orders: pd.DataFrame, results: list[OrderResult], blank_turn_rows: list[int],
                 turn: int) -> pd.DataFrame:
    """The orders tab after the turn: each result's row given its public face (a secret
    order's: "private", without its reason), and each row of ``blank_turn_rows`` this
    ``turn``."""
    # A shallow copy: the columns below are replaced whole, never written into, so the
    # before-state keeps its own (a deep copy of a million rows cost a second).
    out = orders.copy(deep=False)
    where = out.index.get_indexer(np.fromiter(map(_row, results), dtype=np.int64,
                                              count=len(results)))
    words = {s: s.value for s in Status}
    for col, new in ((RESULT, list(map(words.__getitem__, map(_status, results)))),
                     (REASON, list(map(_public_reason, results)))):
        cells = out[col].to_numpy(dtype=object, copy=True)
        cells[where] = new
        out[col] = cells
    if blank_turn_rows:
        cells = out[TURN].to_numpy(dtype=object, copy=True)
        cells[out.index.get_indexer(np.asarray(blank_turn_rows, dtype=np.int64))] = turn
        out[TURN] = cells
    return out


_row, _status, _public_reason = map(operator.attrgetter,
                                    ("row", "public_status", "public_reason"))


__all__ = ["in_sheet_order", "orders_after", "refuse_out_of_turn", "secret_orders", "when"]

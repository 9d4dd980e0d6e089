"""A turn's public report rebuilt from what the sheet keeps, for a turn whose report file is
not at hand (every turn of a Google Sheet).

The Log tab holds the public lines of every turn and nothing else (private and GM-only lines
never reach it), and the orders tabs keep each order row with its turn, result and public
reason. From them :func:`logged_report` makes a :class:`~sheetmaster.kit.model.TurnResult`, keeps
its public part (:meth:`TurnResult.public`: orders of a secret kind go) and writes the public
report with the same code a resolve uses. Holdings and balances need the game before and
after the turn: without them the report has the orders and lines alone.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pandas as pd

from sheetmaster.app.report import player_report
from sheetmaster.kit import values
from sheetmaster.kit.fairness import parse_dice_line
from sheetmaster.kit.model import PRIVATE_REASON, Event, GameState, OrderResult, Status, TurnResult
from sheetmaster.kit.orders import ORDER, PLAYER, REASON, RESULT, TURN
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.tabs import GM_ORDERS_TAB, LOG_TAB, ORDERS_TAB

_STATUS = {s.value: s for s in Status}


def logged_report(ruleset: Ruleset, turn: int, now: GameState, after: GameState | None = None,
                  before: GameState | None = None) -> str | None:
    """Turn ``turn``'s public report from ``now``'s Log and order rows (a validated state);
    ``after``/``before``: the game after and before the turn, when at hand. None when the
    sheet keeps nothing of that turn. (For many turns, read the sheet once: :class:`Logbook`.)"""
    return Logbook(ruleset, now).report(turn, after, before)


class Logbook:
    """Every turn's Log lines and order rows, read once from a validated state."""

    def __init__(self, ruleset: Ruleset, now: GameState) -> None:
        self.ruleset = ruleset
        self.now = now
        self.events = _events(now.tables.get(LOG_TAB))
        self.results = _results(ruleset, now)

    def report(self, turn: int, after: GameState | None = None,
               before: GameState | None = None) -> str | None:
        """Turn ``turn``'s public report (see :func:`logged_report`), or None."""
        events, results = self.events.get(turn, []), self.results.get(turn, [])
        if not events and not results:
            return None
        dice = next((parse_dice_line(e.text) for e in events if e.kind == "dice"), None)
        shown = after or self.now
        result = TurnResult(self.ruleset.name, turn, dice.seed if dice else 0,
                            before if before is not None and after is not None else shown,
                            shown, results, events)
        text = player_report(self.ruleset, result.public())
        return text if dice else text.replace(" Dice seed: 0.", "", 1)


def _events(log: pd.DataFrame | None) -> dict[int, list[Event]]:
    """The Log's lines by turn, in order (all public: only those are ever written)."""
    out: dict[int, list[Event]] = defaultdict(list)
    if log is None or not len(log):
        return out
    columns = [log[c].tolist() if c in log.columns else [None] * len(log)
               for c in ("turn", "#", "phase", "player", "event", "details", "die", "roll")]
    for turn, number, phase, player, kind, details, die, roll in zip(*columns):
        at = _whole(turn)
        if at is None:
            continue
        die = values.text(die)
        lines = out[at]
        lines.append(Event(_whole(number) or len(lines) + 1, values.text(phase),
                           values.text(player), values.text(kind), values.text(details),
                           _whole(die[1:]) if die.startswith("d") else None, _whole(roll)))
    return out


def _results(ruleset: Ruleset, state: GameState) -> dict[int, list[OrderResult]]:
    """The order rows that have a result, by turn: the Orders tab's, then the GM orders
    tab's (their rows negative, as the resolve numbers them)."""
    secret = {values.fold(k.name) for k in ruleset.order_kinds if k.secret}
    out: dict[int, list[OrderResult]] = defaultdict(list)
    for tab, sign in ((ORDERS_TAB, 1), (GM_ORDERS_TAB, -1)):
        frame = state.tables.get(tab)
        if frame is None or not len(frame):
            continue
        for row, cells in zip(frame.index.tolist(), frame.to_dict("records")):
            status = _STATUS.get(values.fold(values.text(cells.get(RESULT))))
            turn = _whole(cells.get(TURN))
            if status is None or turn is None:
                continue
            kind, reason = values.text(cells.get(ORDER)), values.text(cells.get(REASON))
            out[turn].append(OrderResult(sign * int(row), values.text(cells.get(PLAYER)),
                                         kind, status, reason, secret=values.fold(kind) in
                                         secret or reason == PRIVATE_REASON))
    return out


def _whole(cell: Any) -> int | None:
    try:
        number = float(values.text(cell))
    except ValueError:
        return None
    return int(number) if number.is_integer() else None

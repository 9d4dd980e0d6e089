"""Order kinds as a ruleset declares them: the columns every Orders tab has, an order kind's
fields, and a row rejected while being read (which a phase may see). The engine reads the rows
(:mod:`sheetmaster.engine.order_reading`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sheetmaster.kit.model import Status

# Columns every Orders tab has, whatever the ruleset.
TURN, PLAYER, ORDER, RESULT, REASON = "turn", "player", "order", "result", "reason"
#: The result words that mean a row was already resolved (check's words do not).
FINAL_RESULTS = {s.value for s in Status}


@dataclass(frozen=True)
class Field:
    """One input column an order kind reads.

    ``names`` is the category of name the cell must hold ("player", "territory", ...), checked
    against the game; ``count`` means a whole number of at least 1; ``decimal`` an exact
    amount above 0 that may have a fraction (9.75, read as a Decimal); otherwise free text.
    """

    column: str
    names: str | None = None
    count: bool = False
    decimal: bool = False
    required: bool = True
    help: str = ""


@dataclass(frozen=True)
class OrderKind:
    name: str
    fields: tuple[Field, ...] = ()
    help: str = ""
    #: an example row for the "how to write orders" tab: column -> value.
    example: Mapping[str, Any] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()
    #: the same row may be posted twice on purpose (e.g. two Rice Farms in one province);
    #: otherwise an exact repeat of an earlier row is taken for a double post and rejected.
    repeatable: bool = False
    #: given on the setup turn (turn 0) only; other kinds are refused on it.
    setup: bool = False
    #: its outcome hangs on a secret of its player's (a card in hand, an ambition, a Ninja's
    #: target): everyone else sees its status as "private" and no reason, whatever became of
    #: it, and the player's own report has the outcome.
    secret: bool = False
    #: which of its orders are secret, when only some are: told an order's fields and the
    #: world before the turn, whether the order hangs on a secret (1800: an activation whose
    #: cost discards a card in hand). It may read only what everyone may know (the order, a
    #: public catalogue), never the secret itself, so that a row's being private tells
    #: nothing.
    secret_when: Callable[[Any, Mapping[str, Any]], bool] | None = None
    #: only the GM may give it (from the GM's orders tab); refused from the Orders tab.
    gm_only: bool = False



@dataclass(frozen=True)
class RejectedRow:
    """A row of this turn rejected while being read, with its cells as typed."""

    row: int
    player: str
    kind: str
    record: Mapping[str, Any]

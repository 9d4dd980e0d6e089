"""What every store does: read all tabs at once, write a turn's changes at once.

Stores translate tabs <-> tables and nothing else: they never see a rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from sheetmaster.kit.model import GameState, TurnResult
    from sheetmaster.kit.ruleset import Ruleset


class StoreError(Exception):
    """The game could not be read or written; the message says what to do."""


class Store(Protocol):
    def load(self) -> GameState:
        """Every tab as a table (index = sheet row number), in one read."""
        ...

    def save(self, ruleset: Ruleset, result: TurnResult) -> None:
        """Write the cells the turn changed, in one atomic write."""
        ...

"""sheetmaster: resolve a play-by-post strategy game's turn from its spreadsheet.

The engine is pure: ``resolve(ruleset, state, seed=...)`` takes a game's tables and returns a
:class:`TurnResult` (new tables, a result for every order row, every event and die). Stores
read and write the tables: :class:`~sheetmaster.stores.xlsx.XlsxStore` for a local workbook,
:class:`~sheetmaster.stores.gsheets.SheetsStore` for a Google Sheet.
"""

from sheetmaster.engine.checking import check
from sheetmaster.engine.turn import resolve
from sheetmaster.kit.model import Event, GameState, Order, OrderResult, Status, TurnResult
from sheetmaster.kit.ruleset import Context, Phase, Ruleset
from sheetmaster.kit.schema import StateError
from sheetmaster.rules import available as available_rulesets
from sheetmaster.rules import get as get_ruleset

__all__ = [
    "Context",
    "Event",
    "GameState",
    "Order",
    "OrderResult",
    "Phase",
    "Ruleset",
    "StateError",
    "Status",
    "TurnResult",
    "available_rulesets",
    "check",
    "get_ruleset",
    "resolve",
]
__version__ = "0.1.0"

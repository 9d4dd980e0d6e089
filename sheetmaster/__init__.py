"""sheetmaster: resolve a play-by-post strategy game's turn from its spreadsheet.

The engine is pure: ``resolve(ruleset, state, seed=...)`` takes a game's tables and returns a
:class:`TurnResult` (new tables, a result for every order row, every event and die). Stores
read and write the tables: :class:`~sheetmaster.stores.xlsx.XlsxStore` for a local workbook,
:class:`~sheetmaster.stores.gsheets.SheetsStore` for a Google Sheet.

The names below are imported on first use (:mod:`sheetmaster.kit.lazy`): ``import
sheetmaster``, which every ``sheetmaster.*`` module does first, loads neither pandas nor a
ruleset.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sheetmaster.kit.lazy import lazy_names

if TYPE_CHECKING:
    from sheetmaster.engine.checking import check
    from sheetmaster.engine.turn import resolve
    from sheetmaster.kit.model import Event, GameState, Order, OrderResult, Status, TurnResult
    from sheetmaster.kit.ruleset import Context, Phase, Ruleset
    from sheetmaster.kit.schema import StateError
    from sheetmaster.rules import available as available_rulesets
    from sheetmaster.rules import get as get_ruleset

#: every public name -> the module it comes from (``module:name`` where it is named otherwise)
EXPORTS = {
    "check": "sheetmaster.engine.checking",
    "resolve": "sheetmaster.engine.turn",
    **dict.fromkeys(("Event", "GameState", "Order", "OrderResult", "Status", "TurnResult"),
                    "sheetmaster.kit.model"),
    **dict.fromkeys(("Context", "Phase", "Ruleset"), "sheetmaster.kit.ruleset"),
    "StateError": "sheetmaster.kit.schema",
    "available_rulesets": "sheetmaster.rules:available",
    "get_ruleset": "sheetmaster.rules:get",
}
__all__ = [
    "Context", "Event", "GameState", "Order", "OrderResult", "Phase", "Ruleset", "StateError",
    "Status", "TurnResult", "available_rulesets", "check", "get_ruleset", "resolve",
]
__version__ = "0.1.0"
__getattr__, __dir__ = lazy_names(__name__, EXPORTS)

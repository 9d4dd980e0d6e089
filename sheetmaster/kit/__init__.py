"""The kit: everything a ruleset may use, behind this one module.

A ruleset (``sheetmaster/rules/NAME/``) imports from ``sheetmaster.kit`` and
``sheetmaster.rules.common`` only; an import-linter contract in CI holds it to that. The engine
(``sheetmaster.engine``) runs the phases a ruleset declares; the application
(``sheetmaster.app``: the command line, runs, reports, verify) runs the engine against a store.
Nothing here imports either of them.

What is here, by what a ruleset does with it:

- declare the game: :class:`Ruleset`, :class:`Phase`, its tabs (:class:`Table`,
  :class:`Column`, :class:`Kind`), its order kinds (:class:`OrderKind`, :class:`Field`), its
  settings (:class:`Setting`) and calendar (:class:`Calendar`), its map
  (:class:`MapSpec`, :class:`MapGraph` and its edge types);
- say who acts when: :data:`GLOBAL`, :data:`POSTING_ORDER`, :class:`SeatOrder`,
  :func:`round_robin`;
- run a phase: the :class:`Context` it is given (orders, dice, settings, the world, events),
  :class:`Order` and :class:`OrderBatch`, :class:`Status`, :class:`Reason`, the visibility of a
  line (:data:`PUBLIC`, :data:`PRIVATE`, :data:`GM_ONLY`), :class:`Adjudicator` for orders that
  hang on each other;
- keep state across turns: :class:`Timer`, :class:`Decision`, decks, and secrets sealed in the
  shared sheet (:func:`seal`, :func:`unseal`);
- read cells as players type them: :mod:`values` (:class:`Names`, :class:`BadValue`);
- word a line: :func:`plural` ('1 army', '2 armies'), :func:`a` ('an army').

See ``docs/writing-a-ruleset.md`` for a walk through a ruleset's files.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sheetmaster.kit.lazy import lazy_names

if TYPE_CHECKING:
    from sheetmaster.kit import reasons, values
    from sheetmaster.kit.adjudication import Adjudicator, Cycle
    from sheetmaster.kit.calendar import (
        Calendar,
        Date,
        first_round_of_era,
        in_seasons,
        in_stages,
        on_setup,
    )
    from sheetmaster.kit.decisions import GM, Decision
    from sheetmaster.kit.entities import WrittenTab, a, write_rows
    from sheetmaster.kit.fairness import EXAMPLE_SECRET, SECRET_ENV, SECRET_SUFFIX
    from sheetmaster.kit.mapgraph import CANAL, COAST, LAND, PORT, RAIL, SEA, WATERWAY, MapGraph
    from sheetmaster.kit.mapspec import MapSpec, Units
    from sheetmaster.kit.model import (
        GM_ONLY,
        PRIVATE,
        PUBLIC,
        WARNING,
        Event,
        GameState,
        Order,
        Status,
    )
    from sheetmaster.kit.order_batch import OrderBatch
    from sheetmaster.kit.orders import Field, OrderKind, RejectedRow
    from sheetmaster.kit.reasons import IN_EXILE, Reason
    from sheetmaster.kit.ruleset import Context, Lines, Phase, Ruleset
    from sheetmaster.kit.schema import Column, Kind, Problem, Problems, Table, lookup_name
    from sheetmaster.kit.sealed import SecretNeeded, is_sealed, seal, sealed_width, unseal
    from sheetmaster.kit.settings import MissingSetting, Setting
    from sheetmaster.kit.timers import TIMERS_TAB, Timer, TimerLayout, data_text, parse_data
    from sheetmaster.kit.turn_order import (
        GLOBAL,
        POSTING_ORDER,
        PostingOrder,
        SeatOrder,
        TurnOrder,
        from_dealers_left,
        round_robin,
    )
    from sheetmaster.kit.values import BadValue, Names, plural
    from sheetmaster.kit.world import World

#: every public name -> the kit module it comes from; imported on first use
#: (:mod:`sheetmaster.kit.lazy`), so that a module that needs one kit module (the command
#: line: :mod:`~sheetmaster.kit.fairness`) does not load them all, and pandas with them.
EXPORTS = {
    "reasons": "sheetmaster.kit.reasons",
    "values": "sheetmaster.kit.values",
    **{name: f"sheetmaster.kit.{module}" for module, names in {
        "adjudication": ("Adjudicator", "Cycle"),
        "calendar": ("Calendar", "Date", "first_round_of_era", "in_seasons", "in_stages",
                     "on_setup"),
        "decisions": ("GM", "Decision"),
        "entities": ("WrittenTab", "a", "write_rows"),
        "fairness": ("EXAMPLE_SECRET", "SECRET_ENV", "SECRET_SUFFIX"),
        "mapgraph": ("CANAL", "COAST", "LAND", "PORT", "RAIL", "SEA", "WATERWAY", "MapGraph"),
        "mapspec": ("MapSpec", "Units"),
        "model": ("GM_ONLY", "PRIVATE", "PUBLIC", "WARNING", "Event", "GameState", "Order",
                  "Status"),
        "order_batch": ("OrderBatch",),
        "orders": ("Field", "OrderKind", "RejectedRow"),
        "reasons": ("IN_EXILE", "Reason"),
        "ruleset": ("Context", "Lines", "Phase", "Ruleset"),
        "schema": ("Column", "Kind", "Problem", "Problems", "Table", "lookup_name"),
        "sealed": ("SecretNeeded", "is_sealed", "seal", "sealed_width", "unseal"),
        "settings": ("MissingSetting", "Setting"),
        "timers": ("TIMERS_TAB", "Timer", "TimerLayout", "data_text", "parse_data"),
        "turn_order": ("GLOBAL", "POSTING_ORDER", "PostingOrder", "SeatOrder", "TurnOrder",
                       "from_dealers_left", "round_robin"),
        "values": ("BadValue", "Names", "plural"),
        "world": ("World",),
    }.items() for name in names},
}
__all__ = [
    "CANAL", "COAST", "EXAMPLE_SECRET", "GLOBAL", "GM", "GM_ONLY", "IN_EXILE", "LAND", "PORT",
    "POSTING_ORDER", "PRIVATE", "PUBLIC", "RAIL", "SEA", "SECRET_ENV", "SECRET_SUFFIX",
    "TIMERS_TAB",
    "WARNING", "WATERWAY", "Adjudicator", "BadValue", "Calendar", "Column", "Context",
    "Cycle", "Date", "Decision", "Event", "Field", "GameState", "Kind", "Lines", "MapGraph",
    "MapSpec", "MissingSetting", "Names", "Order", "OrderBatch", "OrderKind", "Phase",
    "PostingOrder", "Problem", "Problems", "Reason", "RejectedRow", "Ruleset", "SeatOrder",
    "SecretNeeded", "Setting", "Status", "Table", "Timer", "TimerLayout", "TurnOrder", "Units",
    "World",
    "WrittenTab", "a", "data_text", "first_round_of_era", "from_dealers_left", "in_seasons",
    "in_stages", "is_sealed", "lookup_name", "on_setup", "parse_data", "plural", "reasons",
    "round_robin", "seal", "sealed_width", "unseal", "values", "write_rows",
]
__getattr__, __dir__ = lazy_names(__name__, EXPORTS)

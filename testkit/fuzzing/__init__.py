"""Fuzzing order rows and state tabs, for every ruleset in :func:`sheetmaster.rules.available`.

Two halves:

* **Order rows.** A game is generated (players, territories with borders...), then turn after
  turn a batch of order rows mixing valid and malformed cells is appended to its Orders tab
  and the turn is resolved. The resolved turn is written back the way a store writes it (only
  the cells :func:`~sheetmaster.app.report.cell_changes` lists) and the next turn is played on that.
  After every turn :func:`turn_violations` checks what must always hold, for any ruleset: no
  exception, one result for every order row that needs one and none for the others, the turn
  counter + 1, no cell outside sheetmaster's columns changed, rejected rows changing nothing by
  themselves; then the ruleset's own invariants, registered in :data:`INVARIANTS`; then
  ``sheetmaster verify`` of the turn as written back (as the GM: a fair turn never fails it).
* **Damaged states.** A valid game is damaged (a column dropped or renamed, text in a number
  column, a duplicate name, a missing tab..., plus the ruleset's own cross-reference damages
  from :data:`DAMAGES`); resolve must refuse it with a StateError naming the tab, the row and
  the column, and a run against a store must write nothing.

Generation goes through a :class:`Chooser`, so the same code runs from a seeded
``random.Random`` (:func:`run_fuzz`: thousands of rows, for the test suite's volume test and the
reliability report) and from hypothesis (:func:`fuzz_cases`, :func:`damaged_states`: small,
shrinkable examples). Order kinds, fields and name categories come from what the ruleset
declares; what is per ruleset is registered by its name: a game generator (:data:`GAMES`),
rows that make sense together (:data:`SCENARIOS`), invariants (:data:`INVARIANTS`), the
kinds whose rejected rows may change things (:data:`REJECTION_MATTERS`) and cross-reference
damages (:data:`DAMAGES`). A ruleset that registers nothing is fuzzed on its example game (or
a blank one) with the checks every ruleset gets.

The package's modules: :mod:`.choosers` (where choices come from), :mod:`.games` (valid
games), :mod:`.rows` (cells and order rows), :mod:`.sheet_writes` (appending rows, writing a
turn back), :mod:`.invariants` (what must hold after every turn), :mod:`.damage` (damaged
states and workbooks), :mod:`.strategies` (hypothesis), :mod:`.run` (playing games, the
volume run), and each ruleset's own: :mod:`.claims_checks`, :mod:`.clans_checks`,
:mod:`.goldenage_checks`, :mod:`.decades_checks`, :mod:`.eighteen_hundred_checks`.
"""

from __future__ import annotations

# every public name of the package's modules (those outside __all__ too: the claims ruleset's
# checks, the junk cells...); importing claims_checks registers the claims ruleset.
from testkit.fuzzing.choosers import (
    Chooser,
    DrawChooser,
    RandomChooser,
)
from testkit.fuzzing.claims_checks import claims_damages as claims_damages
from testkit.fuzzing.claims_checks import claims_game as claims_game
from testkit.fuzzing.claims_checks import claims_invariants as claims_invariants
from testkit.fuzzing.claims_checks import claims_scenarios as claims_scenarios
from testkit.fuzzing.damage import (
    DAMAGES,
    Damage,
    all_damages,
    damage_state,
    damage_workbook,
    refusal_problem,
    workbook_refusal_problem,
)
from testkit.fuzzing.damage import _fits_a_workbook as _fits_a_workbook
from testkit.fuzzing.damage import generic_damages as generic_damages
from testkit.fuzzing.games import (
    GAMES,
    GameSpec,
    build_game,
)
from testkit.fuzzing.games import example_or_blank_game as example_or_blank_game
from testkit.fuzzing.invariants import (
    GROWS,
    INVARIANTS,
    REJECTION_MATTERS,
    TurnCheck,
    rejected_rows_are_inert,
    rows_needing_result,
    turn_violations,
)
from testkit.fuzzing.rows import JUNK_AMOUNTS as JUNK_AMOUNTS
from testkit.fuzzing.rows import JUNK_EMAILS as JUNK_EMAILS
from testkit.fuzzing.rows import JUNK_TEXT as JUNK_TEXT
from testkit.fuzzing.rows import JUNK_TURNS as JUNK_TURNS
from testkit.fuzzing.rows import (
    SCENARIOS,
    Formula,
    Pools,
    order_rows,
    pools_of,
)
from testkit.fuzzing.rows import name_variant as name_variant
from testkit.fuzzing.rows import order_row as order_row
from testkit.fuzzing.run import (
    Figures,
    play_game,
    run_fuzz,
)
from testkit.fuzzing.sheet_writes import (
    append_orders,
    write_back,
)
from testkit.fuzzing.strategies import (
    DamagedCase,
    FuzzCase,
    check_case,
    damaged_states,
    fuzz_cases,
)


def _register_clans() -> None:
    """A clan's turn comes at its first posted row, rejected or not (see clans_checks)."""
    from testkit.fuzzing import clans_checks

    INVARIANTS["clans"] = clans_checks.clans_invariants
    REJECTION_MATTERS["clans"] = clans_checks.REJECTION_MATTERS


_register_clans()


def _register_rulesets() -> None:
    """Importing goldenage_checks, decades_checks and eighteen_hundred_checks registers those
    rulesets' games, scenarios, rows, invariants and damages."""
    from testkit.fuzzing import (  # noqa: F401
        decades_checks,
        eighteen_hundred_checks,
        goldenage_checks,
    )


_register_rulesets()

__all__ = [
    "DAMAGES", "GAMES", "GROWS", "INVARIANTS", "REJECTION_MATTERS", "SCENARIOS", "Chooser",
    "Damage", "DamagedCase", "DrawChooser", "Figures", "Formula", "FuzzCase", "GameSpec", "Pools",
    "RandomChooser", "TurnCheck", "all_damages", "append_orders", "build_game", "check_case",
    "damage_state", "damage_workbook", "damaged_states", "fuzz_cases", "order_rows",
    "play_game", "pools_of", "refusal_problem", "rejected_rows_are_inert", "rows_needing_result",
    "run_fuzz", "turn_violations", "workbook_refusal_problem", "write_back",
]

"""Playing fuzzed games turn after turn (:func:`play_game`), and the volume run over every
ruleset (:func:`run_fuzz`).
"""

from __future__ import annotations

import random
import tempfile
import time as clock
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sheetmaster import rules
from sheetmaster.app.verify import verify_turn
from sheetmaster.engine.turn import prepare, resolve
from sheetmaster.kit.model import GameState, TurnResult
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.schema import Table
from testkit.fuzzing.choosers import RandomChooser
from testkit.fuzzing.damage import (
    Damage,
    _fits_a_workbook,
    all_damages,
    refusal_problem,
    workbook_refusal_problem,
)
from testkit.fuzzing.games import build_game
from testkit.fuzzing.invariants import _same, rejected_rows_are_inert, turn_violations
from testkit.fuzzing.rows import order_rows, pools_of
from testkit.fuzzing.sheet_writes import append_orders, write_back

# -- playing games ----------------------------------------------------------------------------


@dataclass
class Figures:
    """What a fuzz run did and found (:func:`run_fuzz` returns them as a dict)."""

    rulesets: list[str] = field(default_factory=list)
    order_rows: int = 0
    turns: int = 0
    uncaught_exceptions: int = 0
    rows_without_result: int = 0
    invariant_violations: int = 0
    damaged_states: int = 0
    damaged_states_refused_before_write: int = 0
    damaged_workbooks: int = 0
    damaged_workbooks_unchanged: int = 0
    statuses: Counter = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        if len(self.examples) < 20:
            self.examples.append(text)


def play_game(ruleset: Ruleset, raw: GameState, batches: Iterable[Any], figures: Figures, *,
              inert: bool = True, label: str = "") -> GameState:
    """Play turn after turn; ``batches`` yields each turn's rows, given the game's pools
    (a list, or a callable ``pools -> rows``). Returns the game as it ends."""
    secret = f"fuzzed game {label} dice secret"
    try:
        prepared = prepare(ruleset, raw, secret)
    except Exception as exc:  # the generated game itself must be valid
        figures.uncaught_exceptions += 1
        figures.note(f"{label}: the generated game is refused: {type(exc).__name__}: {exc}")
        return raw
    for batch in batches:
        pools = pools_of(ruleset, raw, prepared)
        rows = batch(pools) if callable(batch) else batch
        raw = append_orders(ruleset, raw, rows)
        figures.order_rows += len(rows)
        try:
            result = resolve(ruleset, raw, secret=secret)
        except Exception as exc:
            figures.uncaught_exceptions += 1
            figures.note(f"{label} turn {pools.turn}: {type(exc).__name__}: {exc}")
            return raw
        figures.turns += 1
        figures.statuses.update(r.status.value for r in result.results)
        check = turn_violations(ruleset, result)
        if inert:
            try:
                check.violations.extend(rejected_rows_are_inert(ruleset, raw, result,
                                                                secret=secret))
            except Exception as exc:
                check.violations.append(f"resolving without the rejected rows: "
                                        f"{type(exc).__name__}: {exc}")
        figures.rows_without_result += len(check.missing)
        if check.missing:
            figures.note(f"{label} turn {result.turn}: rows {check.missing[:10]} got no result")
        figures.invariant_violations += len(check.violations)
        for v in check.violations[:3]:
            figures.note(f"{label}: {v}")
        before, raw = raw, write_back(ruleset, raw, result)
        _verify(ruleset, before, raw, secret, figures, f"{label} turn {result.turn}")
        try:
            prepared = prepare(ruleset, raw, secret)
        except Exception as exc:
            figures.uncaught_exceptions += 1
            figures.note(f"{label}: after turn {result.turn} the game no longer reads: "
                         f"{type(exc).__name__}: {exc}")
            return raw
        for table in ruleset.tables:
            mismatch = _written_back_mismatch(table, result, prepared.state)
            if mismatch:
                figures.invariant_violations += 1
                figures.note(f"{label}: {mismatch}")
    return raw


def _verify(ruleset: Ruleset, before: GameState, after: GameState, secret: str,
            figures: Figures, label: str) -> None:
    """``sheetmaster verify`` of the turn just played, as the GM (who has the secret): a fair
    turn is never failed (its dice, its Log and the sheet written back are the rules')."""
    try:
        verified = verify_turn(after, before=before, before_from="the game before the turn",
                               secret=secret)
    except Exception as exc:
        figures.uncaught_exceptions += 1
        figures.note(f"{label}: verify: {type(exc).__name__}: {exc}")
        return
    failed = [text for passed, text in verified.checks if passed is False]
    figures.invariant_violations += len(failed)
    for text in failed[:3]:
        figures.note(f"{label}: verify failed: {text}")


def _written_back_mismatch(table: Table, result: TurnResult, reread: GameState) -> str:
    """The store wrote every cell the turn changed: the game read back is the turn's after."""
    after, again = result.after.tables[table.tab], reread.tables[table.tab]
    for column in [c.name for c in table.columns if c.owned]:
        if column not in again.columns or column in after.attrs.get("absent", ()):
            continue
        for row, a, b in zip(after.index, after[column].tolist(),
                             again[column].reindex(after.index).tolist()):
            if not _same(a, b):
                return (f"turn {result.turn}: tab {table.tab!r} row {row} column {column!r} "
                        f"reads back {b!r}, the turn wrote {a!r}")
    return ""


# -- the volume run -------------------------------------------------------------------------------


def run_fuzz(rows_per_ruleset: int = 10_000, seed: int = 0, *, rows_per_turn: int = 200,
             turns_per_game: int = 5, damaged_per_ruleset: int | None = None,
             workbooks_per_ruleset: int = 4, inert: bool = True) -> dict[str, Any]:
    """Fuzz every ruleset: at least ``rows_per_ruleset`` order rows each, in games of
    ``turns_per_game`` turns of ``rows_per_turn`` rows; then damaged states (by default one
    per 100 rows) and a few damaged workbooks run through ``sheetmaster resolve``.

    Deterministic for a given ``seed``. The figures' counts of problems are all 0 when
    sheetmaster holds; ``examples`` shows the first problems found.
    """
    started = clock.perf_counter()
    figures = Figures()
    damaged_per_ruleset = max(20, rows_per_ruleset // 100) if damaged_per_ruleset is None \
        else damaged_per_ruleset
    for name, ruleset in sorted(rules.available().items()):
        figures.rulesets.append(name)
        rng = random.Random(f"{seed}:{name}")
        ch = RandomChooser(rng)
        first = figures.order_rows
        game_no = 0
        while figures.order_rows - first < rows_per_ruleset:
            game_no += 1
            game = build_game(ruleset, ch)
            left = rows_per_ruleset - (figures.order_rows - first)
            turns = max(1, min(turns_per_game, -(-left // rows_per_turn)))
            batches = [lambda pools, ch=ch: order_rows(ch, pools, rows_per_turn)] * turns
            play_game(ruleset, game, batches, figures, inert=inert,
                      label=f"{name} seed {seed} game {game_no}")
        damages: list[tuple[GameState, Damage]] = []
        while len(damages) < damaged_per_ruleset:
            game = build_game(ruleset, ch)
            options = all_damages(ruleset, game)
            rng.shuffle(options)
            damages.extend((game, d) for d in options[:10])
        for game, damage in damages[:damaged_per_ruleset]:
            figures.damaged_states += 1
            problem = refusal_problem(ruleset, game, damage)
            if problem:
                figures.note(f"{name}: {problem}")
            else:
                figures.damaged_states_refused_before_write += 1
        picks = []
        while len(picks) < workbooks_per_ruleset:
            game = build_game(ruleset, ch, dressed=False)
            options = [d for d in all_damages(ruleset, game) if _fits_a_workbook(d)]
            picks.append((game, options[rng.randrange(len(options))]))
        with tempfile.TemporaryDirectory() as tmp:
            for i, (game, damage) in enumerate(picks):
                folder = Path(tmp) / str(i)
                folder.mkdir()
                figures.damaged_workbooks += 1
                problem = workbook_refusal_problem(ruleset, game, damage, folder)
                if problem:
                    figures.note(f"{name}: {problem}")
                else:
                    figures.damaged_workbooks_unchanged += 1
    return {
        "rulesets": figures.rulesets,
        "order_rows": figures.order_rows,
        "turns": figures.turns,
        "uncaught_exceptions": figures.uncaught_exceptions,
        "rows_without_result": figures.rows_without_result,
        "invariant_violations": figures.invariant_violations,
        "damaged_states": figures.damaged_states,
        "damaged_states_refused_before_write": figures.damaged_states_refused_before_write,
        "damaged_workbooks": figures.damaged_workbooks,
        "damaged_workbooks_unchanged": figures.damaged_workbooks_unchanged,
        "results": dict(sorted(figures.statuses.items())),
        "seconds": round(clock.perf_counter() - started, 1),
        "examples": figures.examples,
    }

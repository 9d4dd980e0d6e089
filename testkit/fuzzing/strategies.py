"""Hypothesis strategies: small, shrinkable games with their order rows, and damaged
states.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sheetmaster.kit.model import GameState
from sheetmaster.kit.ruleset import Ruleset
from testkit.fuzzing.choosers import DrawChooser
from testkit.fuzzing.damage import Damage, all_damages
from testkit.fuzzing.games import build_game
from testkit.fuzzing.rows import order_rows, pools_of
from testkit.fuzzing.run import Figures, play_game

# -- hypothesis strategies ----------------------------------------------------------------------


class FuzzCase:
    """A generated game and the order rows of its next turns (a plain class, so that
    hypothesis prints a failing example with :meth:`__repr__`: the tabs and the rows)."""

    def __init__(self, ruleset: Ruleset, game: GameState,
                 batches: list[list[dict[str, Any]]]) -> None:
        self.ruleset, self.game, self.batches = ruleset, game, batches

    def __repr__(self) -> str:
        rows = "\n".join(f"  turn +{i}: {row!r}" for i, b in enumerate(self.batches) for row in b)
        tabs = "\n".join(f"--- {tab}\n{df.to_string()}" for tab, df in self.game.tables.items())
        return f"FuzzCase({self.ruleset.name})\n{tabs}\n--- order rows\n{rows}"


def fuzz_cases(ruleset: Ruleset, *, turns: tuple[int, int] = (1, 3),
               rows: tuple[int, int] = (0, 25)):
    """Strategy: a valid game and a few turns' order rows (hypothesis draws every choice)."""
    from hypothesis import strategies as st

    @st.composite
    def cases(draw: Callable[[Any], Any]) -> FuzzCase:
        ch = DrawChooser(draw)
        game = build_game(ruleset, ch)
        pools = pools_of(ruleset, game)
        batches = []
        for i in range(ch.integer(*turns)):
            pools.turn += 0 if i == 0 else 1
            batches.append(order_rows(ch, pools, ch.integer(*rows)))
        return FuzzCase(ruleset, game, batches)

    return cases()


class DamagedCase:
    """A valid game and one damage to it (printed as the damage and the game's tabs)."""

    def __init__(self, ruleset: Ruleset, game: GameState, damage: Damage) -> None:
        self.ruleset, self.game, self.damage = ruleset, game, damage

    def __iter__(self):
        return iter((self.game, self.damage))

    def __repr__(self) -> str:
        tabs = "\n".join(f"--- {tab}\n{df.to_string()}" for tab, df in self.game.tables.items())
        return f"DamagedCase({self.ruleset.name}, {self.damage!r})\n{tabs}"


def damaged_states(ruleset: Ruleset):
    """Strategy: a valid game and one damage to it (unpacks as ``game, damage``)."""
    from hypothesis import strategies as st

    @st.composite
    def damaged(draw: Callable[[Any], Any]) -> DamagedCase:
        game = build_game(ruleset, DrawChooser(draw))
        return DamagedCase(ruleset, game, draw(st.sampled_from(all_damages(ruleset, game))))

    return damaged()


def check_case(case: FuzzCase, *, inert: bool = True) -> Figures:
    """Play a :class:`FuzzCase`; the figures say what broke."""
    figures = Figures([case.ruleset.name])
    play_game(case.ruleset, case.game, case.batches, figures, inert=inert, label="case")
    return figures

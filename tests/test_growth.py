"""Every ruleset's turn grows linearly with the game (issue 26.1), guarded by counting
operations, never time. A turn's function calls are counted for games of sizes n, 2n and 4n;
what a turn costs whatever the size (reading the Game tab, the phases' set-up) cancels out of
the steps between them, and a linear turn's second step is twice its first. The guard allows
2.6x (30% for what does not grow evenly, such as a nation's share of a larger map); a
quadratic loop (a scan of every row for each row) makes the second step 4x the first, and
trips it long before anyone would notice the seconds. The games are the benchmarks' own generators
(``benchmarks/``), small enough to count in a few seconds on a loaded machine.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any

import pytest

from sheetmaster.engine.builder import build_state
from sheetmaster.engine.turn import resolve
from sheetmaster.kit import Ruleset
from sheetmaster.rules import get

#: the second step (2n -> 4n) at most this many times the first (n -> 2n): linear is 2
BOUND = 2.6


def growth(count: Callable[[int], int], n: int) -> float:
    """How much more the step from 2n to 4n costs than the step from n to 2n."""
    small, middle, large = count(n), count(2 * n), count(4 * n)
    return (large - middle) / (middle - small)


def calls(run: Callable[[], Any]) -> int:
    """The Python and built-in function calls ``run`` makes: the same count on every
    machine, however loaded."""
    count = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return count


def _claims(size: int) -> tuple[Ruleset, Any]:
    bench = importlib.import_module("benchmarks.claims_scale")
    return get("claims"), bench.build_game_state(bench.generate_game(size * 20))


def _clans(size: int) -> tuple[Ruleset, Any]:
    game = importlib.import_module("benchmarks.clans_season").generate_game(size, size * 12)
    return get("clans"), _state("clans", game)


def _goldenage(size: int) -> tuple[Ruleset, Any]:
    game = importlib.import_module("benchmarks.goldenage_season").generate_game(
        size, size * 12, size * 4)
    return get("goldenage"), _state("goldenage", game)


def _decades(size: int) -> tuple[Ruleset, Any]:
    """``size`` tiles of the example: the dice decide which wars end in a conquest, and a
    step of fewer tiles would measure them more than the game's size."""
    bench = importlib.import_module("benchmarks.decades_season")
    return get("decades"), _state("decades", bench.generate_game(size * bench.TILE))


def _eighteen_hundred(size: int) -> tuple[Ruleset, Any]:
    """A turns stage (its hands are keyed by the dice secret the generator dealt them with)."""
    game = importlib.import_module("benchmarks.eighteen_hundred_round").generate_game(size * 50)
    return get("eighteen_hundred"), _state("eighteen_hundred", game), game["secret"]


def _state(name: str, game: dict[str, Any]) -> Any:
    return build_state(get(name), game["tables"], game["orders"], settings=game["settings"])


#: ruleset -> a game of that size (the benchmark module it comes from must exist)
GAMES: dict[str, tuple[str, Callable[[int], tuple[Ruleset, Any]]]] = {
    "claims": ("benchmarks.claims_scale", _claims),
    "clans": ("benchmarks.clans_season", _clans),
    "decades": ("benchmarks.decades_season", _decades),
    "eighteen_hundred": ("benchmarks.eighteen_hundred_round", _eighteen_hundred),
    "goldenage": ("benchmarks.goldenage_season", _goldenage),
}


def turn_calls(game: Callable[[int], tuple[Ruleset, Any]], size: int) -> int:
    """The calls of one turn of the game of that size (with the game's dice secret, for a
    game that has one: else the seed 1)."""
    ruleset, state, *secret = game(size)
    if secret:
        return calls(lambda: resolve(ruleset, state, secret=secret[0]))
    return calls(lambda: resolve(ruleset, state, seed=1))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_turn_costs_calls_in_proportion_to_the_game(name):
    _, game = GAMES[name]
    turn_calls(game, 10)  # a first turn's one-off work (imports, caches) is no step's
    ratio = growth(lambda size: turn_calls(game, size), 10)
    assert ratio <= BOUND, f"{name}: the step from 2n to 4n cost {ratio:.2f}x the first"


def test_the_guard_trips_on_a_quadratic_loop():
    """The count sees a scan of every row for each row, and passes a loop over the rows."""
    def quadratic(n: int) -> None:
        rows = list(range(n))
        for row in rows:
            sum(1 for other in rows if other < row)

    def linear(n: int) -> None:
        rows = list(range(n))
        for row in rows:
            abs(row)

    assert growth(lambda n: calls(lambda: quadratic(n)), 100) > BOUND
    assert growth(lambda n: calls(lambda: linear(n)), 100) <= BOUND


def test_decades_ties_cost_calls_in_proportion_to_the_states():
    """decades' satellites, personal unions, alliances and union candidates asked of every
    state (as a turn's wars, upheavals and union rolls ask them) come from indexes the world
    keeps (issue 26.1: each was a scan of every state or alliance)."""
    from sheetmaster.engine.turn import prepare

    bench = importlib.import_module("benchmarks.decades_season")

    def count(size: int) -> int:
        ruleset = get("decades")
        world = prepare(ruleset, _state("decades", bench.generate_game(size * bench.TILE))).world

        def ask() -> None:
            for state in list(world.states.values()):
                world.alliance_of(state), world.allies(state), world.unions(state)
                world.satellites(state), world.union_partners(state)
        return calls(ask)

    assert growth(count, 10) <= BOUND

"""Engine features rulesets build on: player turns, ruleset Game settings, name aliases,
repeatable orders and a players tab keyed by another name than 'player'."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from sheetmaster.app.report import player_report
from sheetmaster.engine.builder import build_state
from sheetmaster.engine.turn import resolve
from sheetmaster.kit import values
from sheetmaster.kit.calendar import Calendar
from sheetmaster.kit.entities import WrittenTab
from sheetmaster.kit.model import GameState, Status
from sheetmaster.kit.orders import Field, OrderKind
from sheetmaster.kit.ruleset import (
    Context,
    Phase,
    Ruleset,
    RulesetError,
    World,
    player_name_columns,
)
from sheetmaster.kit.schema import Column, Kind, Table
from sheetmaster.kit.settings import Setting
from sheetmaster.kit.turn_order import POSTING_ORDER

HOUSES = Table("Houses", (Column("house", Kind.NAME), Column("coins", Kind.WHOLE, owned=True)),
               key="house", lists_players=True)


class Houses(World):
    def __init__(self, loaded) -> None:
        state = loaded.state
        df = state.tables["Houses"]
        self.rows = dict(zip(df["house"].tolist(), df.index.tolist()))
        self.coins = dict(zip(df["house"].tolist(), df["coins"].tolist()))
        self.seen: list[tuple[str | None, str, str]] = []
        self.meta = state.meta

    def names(self) -> dict[str, values.Names]:
        return {"player": values.Names(self.coins),
                "colour": values.Names(["Red", "Blue"], {"crimson": "Red"})}



def _step(name: str, kinds: tuple[str, ...] = ()):
    def run(ctx: Context) -> None:
        ctx.world.seen.append((ctx.player, name, ",".join(
            f"{o.kind}@{o.row}" for o in ctx.orders(*kinds))))
        for order in ctx.orders(*kinds):
            if order.kind == "paint":
                ctx.world.seen.append((ctx.player, "colour", order.fields["colour"]))
            ctx.world.coins[order.player] += 1
            ctx.resolve(order, Status.APPLIED, "")
    return run


def _ruleset(**extra: Any) -> Ruleset:
    kinds = (OrderKind("raise"), OrderKind("build", repeatable=True),
             OrderKind("paint", (Field("colour", names="colour"),)),
             OrderKind("gift", (Field("to", names="player"),)))
    return Ruleset(
        name="houses", title="houses", version="1", tables=(HOUSES,), order_kinds=kinds,
        order_columns=(Column("colour", Kind.RAW), Column("to", Kind.RAW)),
        phases=(Phase("a", "start", _step("start")),
                Phase("b", "raise", _step("raise", ("raise",)), order=POSTING_ORDER,
                      orders=("raise",)),
                Phase("c", "build", _step("build", ("build", "paint", "gift")),
                      order=POSTING_ORDER, orders=("build", "paint", "gift")),
                Phase("d", "end", _step("end"))),
        build_world=lambda state, problems: Houses(state), written=(WrittenTab(
            HOUSES, lambda w: [SimpleNamespace(row=row) for row in w.rows.values()],
            lambda w, rows: {"coins": list(w.coins.values())}),), **extra)


def _state(ruleset: Ruleset, orders: list[dict[str, Any]], **settings: Any) -> GameState:
    houses = [{"house": "Stark", "coins": 0}, {"house": "Tully", "coins": 0},
              {"house": "Arryn", "coins": 0}]
    return build_state(ruleset, {"Houses": houses}, orders, settings=settings)


def test_a_world_has_no_emails_notes_seats_or_dealer_unless_its_ruleset_gives_them():
    ruleset = _ruleset()
    result = resolve(ruleset, _state(ruleset, [{"player": "Stark", "order": "raise"}]), seed=1)
    assert result.notes == {}
    world = Houses(SimpleNamespace(state=_state(ruleset, [])))
    assert world.emails() == {} and world.notes() == {}
    with pytest.raises(RulesetError, match="Houses has no seats"):
        world.seating()
    with pytest.raises(RulesetError, match="Houses keeps no dealer"):
        world.dealer()


def test_a_world_that_is_no_engine_world_is_refused_by_name():
    class Bare:
        def names(self) -> dict[str, values.Names]:
            return {"player": values.Names(["Stark"])}

    ruleset = _ruleset()
    bare = Ruleset(**{**ruleset.__dict__, "build_world": lambda state, problems: Bare()})
    with pytest.raises(RulesetError, match="houses: build_world made a Bare, which is no "
                                           "sheetmaster.kit.ruleset.World"):
        resolve(bare, _state(ruleset, []), seed=1)


def test_each_player_phases_run_as_one_turn_per_player_in_posting_order():
    ruleset = _ruleset()
    orders = [{"player": "Tully", "order": "build"}, {"player": "Stark", "order": "raise"},
              {"player": "Tully", "order": "raise"}, {"player": "Stark", "order": "build"}]
    state = _state(ruleset, orders)
    seen: list = []
    original = ruleset.build_world

    def capture(state, problems):
        world = original(state, problems)
        seen.append(world)
        return world

    resolve(Ruleset(**{**ruleset.__dict__, "build_world": capture}), state, seed=1)
    assert seen[0].seen == [
        (None, "start", ""),
        ("Tully", "raise", "raise@4"), ("Tully", "build", "build@2"),
        ("Stark", "raise", "raise@3"), ("Stark", "build", "build@5"),
        (None, "end", ""),
    ]
    assert [[p.key for p in step] for step in ruleset.steps()] == [["a"], ["b", "c"], ["d"]]


def test_repeatable_orders_are_not_taken_for_double_posts():
    ruleset = _ruleset()
    orders = [{"player": "Stark", "order": "build"}, {"player": "Stark", "order": "build"},
              {"player": "Stark", "order": "gift", "to": "Tully"},
              {"player": "Stark", "order": "gift", "to": "Tully"}]
    result = resolve(ruleset, _state(ruleset, orders), seed=1)
    assert [r.status for r in result.results] == [Status.APPLIED] * 3 + [Status.REJECTED]
    assert "same as order row 4" in result.results[3].reason


def test_name_aliases_find_the_name_and_are_not_listed():
    names = values.Names(["Archers", "Spearmen"], {"Bowmen": "Archers"})
    assert names.get("bowmen") == "Archers" and names.get("BOWMEN ") == "Archers"
    assert names.get("Archers") == "Archers" and list(names) == ["Archers", "Spearmen"]
    ruleset = _ruleset()
    result = resolve(ruleset, _state(ruleset, [{"player": "Stark", "order": "paint",
                                                "colour": "Crimson"}]), seed=1)
    assert result.results[0].status is Status.APPLIED


def test_ruleset_settings_and_calendar_labels_are_read_and_written():
    ruleset = _ruleset(settings=(Setting("banner", "the house banner", default="wolf"),),
                       calendar=Calendar(label_setting="moon",
                                         label=lambda date: f"moon {date.turn}"))
    state = _state(ruleset, [])
    game = dict(zip(state.tables["Game"]["setting"], state.tables["Game"]["value"]))
    assert game["banner"] == "wolf" and game["moon"] == "moon 1"
    result = resolve(ruleset, state, seed=1)
    after = dict(zip(result.after.tables["Game"]["setting"],
                     result.after.tables["Game"]["value"]))
    assert after["moon"] == "moon 2" and after["turn"] == 2


def test_a_players_tab_keyed_by_another_name_feeds_reports_and_dropdowns():
    ruleset = _ruleset()
    assert ruleset.players_table() is HOUSES
    assert player_name_columns(ruleset) == ["player", "to"]
    result = resolve(ruleset, _state(ruleset, [{"player": "Arryn", "order": "build"}]), seed=1)
    report = player_report(ruleset, result)
    assert "## Stark" in report and "## Arryn" in report and "coins 0 -> 1" in report


def test_the_collector_comes_back_on_without_traversing_what_the_turn_made(example_state):
    """The collector is paused during a turn; turned back on, the turn's objects must not be
    young (a million orders' worth would be traversed at the next allocation: seconds). A
    caller's own frozen objects stay frozen."""
    import gc

    from sheetmaster.rules.claims.ruleset import RULESET

    state = example_state
    gc.collect()
    assert gc.isenabled()
    result = resolve(RULESET, state, seed=3)
    assert gc.isenabled()
    oldest = {id(o) for o in gc.get_objects(generation=2)}
    assert id(result.events) in oldest and id(result.results) in oldest
    mine = [object()]  # tracked by the collector, frozen below by the caller
    gc.freeze()
    try:
        resolve(RULESET, state, seed=3)
        assert gc.isenabled()
        assert all(o is not mine for o in gc.get_objects())  # still frozen
    finally:
        gc.unfreeze()
    gc.disable()
    try:
        resolve(RULESET, state, seed=3)
        assert not gc.isenabled()  # a caller's choice stands
    finally:
        gc.enable()


def test_what_a_turn_drops_is_freed_at_once_not_left_to_the_collector(example_state):
    """The dice and the lasting tabs call back into the turn's context: the engine lets go
    of those callbacks when the turn ends, so the world and the orders (millions of objects
    in a big game) are freed by reference counting, not left as cyclic garbage."""
    import gc

    from sheetmaster.rules.claims.ruleset import RULESET

    gc.collect()
    result = resolve(RULESET, example_state, seed=3)
    assert result.events
    del result
    assert gc.collect() == 0


@pytest.mark.parametrize("name", ["claims", "clans", "decades", "eighteen_hundred", "goldenage"])
def test_a_turn_resolved_for_its_answers_alone_answers_as_the_whole_turn(name):
    """``check`` resolves a turn up to eight times and writes none of it: ``answers_only``
    leaves the new state's tabs unbuilt (issue 26.3), and changes no result, event or note."""
    from sheetmaster import rules

    ruleset = rules.get(name)
    tables, orders, settings = ruleset.example()
    state = build_state(ruleset, tables, orders, settings=settings)
    whole = resolve(ruleset, state, secret="example-seed")
    answers = resolve(ruleset, state, secret="example-seed", answers_only=True)
    assert answers.results == whole.results and answers.events == whole.events
    assert answers.notes == whole.notes and answers.turn == whole.turn
    assert answers.after is answers.before
    assert list(answers.before.tables) == list(whole.before.tables)

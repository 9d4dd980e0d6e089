"""Property-based tests: bad input never stops a turn, and a broken sheet is never resolved.

For every ruleset in ``sheetmaster.rules.available()`` (see testkit/fuzzing/):

* hypothesis games and order rows, mixing valid and malformed cells, turn after turn: no
  exception, one result for every order row that needs one, every invariant holds, and
  ``verify`` passes every turn;
* the volume run: at least SHEETMASTER_FUZZ_ROWS order rows per ruleset (10,000 by default;
  e.g. ``SHEETMASTER_FUZZ_ROWS=200000 pytest tests/test_fuzz.py`` for a long run);
* damaged state tabs are refused with a StateError naming tab, row and column, and
  ``sheetmaster resolve`` leaves a damaged workbook's bytes as they were;
* the checkers themselves catch a broken turn, a planted bug and a damage that is not one;
* regressions the fuzzer found.

Hypothesis runs derandomized and without a deadline, so CI is reproducible and not flaky.
"""

from __future__ import annotations

import dataclasses
import os
import random
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetmaster import rules
from sheetmaster.app.cli import main
from sheetmaster.engine.builder import build_state, example_game
from sheetmaster.engine.checking import CHECK_WORDS
from sheetmaster.engine.turn import prepare, resolve
from sheetmaster.kit import values
from sheetmaster.kit.model import Status
from sheetmaster.kit.orders import FINAL_RESULTS, RESULT
from sheetmaster.kit.schema import StateError
from sheetmaster.stores.xlsx import XlsxStore
from sheetmaster.stores.xlsx_layout import write_new_workbook
from sheetmaster.testing.golden import GOLDEN_SECRET, load_case
from testkit import fuzzing

RULESETS = sorted(rules.available())
ROWS = int(os.environ.get("SHEETMASTER_FUZZ_ROWS", "10000"))

FUZZ = settings(
    deadline=None, derandomize=True, database=None, print_blob=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.large_base_example],
)


def clean(figures: fuzzing.Figures) -> None:
    assert (figures.uncaught_exceptions, figures.rows_without_result,
            figures.invariant_violations) == (0, 0, 0), "\n".join(figures.examples)


# -- order rows -------------------------------------------------------------------------------


def sizes(quick: int, full: int) -> list:
    """Examples per ruleset: a few in the default run, the full run behind the long marker."""
    return [pytest.param(quick, id="quick"),
            pytest.param(full, id="full", marks=pytest.mark.long)]


@pytest.mark.parametrize("examples", sizes(6, 50))
@pytest.mark.parametrize("name", RULESETS)
def test_order_rows_never_stop_a_turn_and_keep_every_invariant(name, examples):
    @settings(FUZZ, max_examples=examples)
    @given(data=st.data())
    def order_rows(data):
        case = data.draw(fuzzing.fuzz_cases(rules.get(name)), label="case")
        clean(fuzzing.check_case(case))

    order_rows()


@pytest.mark.parametrize("rows", [pytest.param(1000, id="quick"),  # long: 10,000 a ruleset
                                  pytest.param(ROWS, id="full", marks=pytest.mark.long)])
def test_volume_run_of_every_ruleset(rows):
    """run_fuzz as the reliability report calls it: ``rows`` order rows per ruleset (ROWS in
    the long run)."""
    figures = fuzzing.run_fuzz(rows, seed=0)
    assert figures["rulesets"] == RULESETS
    assert figures["order_rows"] >= rows * len(RULESETS)
    assert (figures["uncaught_exceptions"], figures["rows_without_result"],
            figures["invariant_violations"]) == (0, 0, 0), "\n".join(figures["examples"])
    assert figures["damaged_states"] > 0
    assert figures["damaged_states_refused_before_write"] == figures["damaged_states"], \
        "\n".join(figures["examples"])
    assert figures["damaged_workbooks_unchanged"] == figures["damaged_workbooks"] > 0, \
        "\n".join(figures["examples"])
    # the batches are not all rejected: every status claims and clans give occurs ('blocked'
    # and 'not needed' belong to simultaneous moves and standing orders, which they lack)
    assert {Status.APPLIED.value, Status.PARTIAL.value, Status.REJECTED.value} <= \
        set(figures["results"]) <= {s.value for s in Status}


# -- damaged states ---------------------------------------------------------------------------


@pytest.mark.parametrize("examples", sizes(10, 80))
@pytest.mark.parametrize("name", RULESETS)
def test_damaged_states_are_refused_naming_tab_row_and_column(name, examples):
    @settings(FUZZ, max_examples=examples)
    @given(data=st.data())
    def damaged_states(data):
        game, damage = data.draw(fuzzing.damaged_states(rules.get(name)), label="damage")
        assert fuzzing.refusal_problem(rules.get(name), game, damage) == ""

    damaged_states()


def _one_of_each_kind(name: str) -> list[fuzzing.Damage]:
    ruleset = rules.get(name)
    game = fuzzing.build_game(ruleset, fuzzing.RandomChooser(random.Random(3)),
                              dressed=False)
    picked: dict[str, fuzzing.Damage] = {}
    for damage in fuzzing.all_damages(ruleset, game):
        if fuzzing._fits_a_workbook(damage):
            picked.setdefault(damage.kind, damage)
    return [(name, game, d) for d in picked.values()]


@pytest.mark.parametrize(("name", "game", "damage"),
                         [p for n in RULESETS for p in _one_of_each_kind(n)],
                         ids=lambda v: v if isinstance(v, str) else getattr(v, "kind", "game"))
def test_a_damaged_workbook_is_left_as_it_was(tmp_path, name, game, damage):
    """`sheetmaster resolve` exits 2 naming the tab; the file's sha256, and its folder, are
    unchanged (no backup, no report, no lock left)."""
    assert fuzzing.workbook_refusal_problem(rules.get(name), game, damage, tmp_path) == ""


def test_every_kind_of_damage_is_tried():
    kinds = {d.kind for _, _, d in _one_of_each_kind("claims")}
    assert kinds >= {"missing tab", "column dropped", "column renamed", "column twice",
                     "bad cell", "duplicate name", "game setting", "cross reference",
                     "look-alike tab", "tab misspelled"}


# -- the checkers can fail ----------------------------------------------------------------------


def _break(result, how: str) -> None:
    """Damage a resolved turn's after-state the way a bug would."""
    after = result.after.tables
    players, lands = after["Players"], after["Territories"]
    first = players.index[0]
    if how == "negative gold":
        players.at[first, "gold"] = -1
    elif how == "armies from nowhere":
        players.at[first, "armies"] += 1
    elif how == "owner who is not a player":
        lands.at[lands.index[0], "owner"] = "Mordred"
    elif how == "territory lost":
        after["Territories"] = lands.drop(index=lands.index[-1])
    elif how == "territory changes hands silently":
        owned = lands.index[lands["owner"] != ""]
        lands.at[owned[0], "owner"] = ""
    elif how == "turn not advanced":
        game = after["Game"]
        game.loc[game["setting"] == "turn", "value"] = result.turn
    elif how == "order without a result":
        result.results.pop()
    elif how == "exile without its event":
        players.at[first, "in exile"] = "" if players.at[first, "in exile"] else "yes"
    elif how == "a GM column changed":
        lands["resource"] = "Gold"
    elif how == "resources kept after phase D":
        players.at[first, "iron"] = 2


BREAKAGES = ["negative gold", "armies from nowhere", "owner who is not a player",
             "territory lost", "territory changes hands silently", "turn not advanced",
             "order without a result", "exile without its event", "a GM column changed",
             "resources kept after phase D"]


@pytest.mark.parametrize("how", BREAKAGES)
def test_the_invariant_checker_catches_a_broken_turn(claims, example_state, how):
    result = resolve(claims, example_state, seed=3)
    assert fuzzing.turn_violations(claims, result) == fuzzing.TurnCheck()
    _break(result, how)
    check = fuzzing.turn_violations(claims, result)
    assert check.missing or check.violations


def _charging_for_rejected_builds(claims):
    """A planted bug: a rejected 'build armies' still costs a gold."""
    build = next(p for p in claims.phases if p.key == "G")

    def run(ctx):
        orders = ctx.orders("build armies")
        build.run(ctx)
        for order in orders:
            player = ctx.world.players.get(order.player)
            if ctx.resolved(order).status is Status.REJECTED and player and player.gold:
                player.gold -= 1

    phases = tuple(dataclasses.replace(p, run=run) if p is build else p for p in claims.phases)
    return dataclasses.replace(claims, phases=phases)


def test_the_fuzzer_finds_a_planted_bug(claims):
    buggy = _charging_for_rejected_builds(claims)
    ch = fuzzing.RandomChooser(random.Random(0))
    figures = fuzzing.Figures(["claims"])
    for _ in range(3):
        fuzzing.play_game(buggy, fuzzing.build_game(buggy, ch),
                          [lambda pools: fuzzing.order_rows(ch, pools, 100)] * 2, figures)
    assert figures.invariant_violations > 0
    assert any("the Log explains" in e or "rejected rows" in e for e in figures.examples)


def _logging_other_dice(claims):
    """A planted cheat: phase G rolls a public d6 and logs the other face."""
    build = next(p for p in claims.phases if p.key == "G")

    def run(ctx):
        build.run(ctx)
        log = ctx.dice.on_roll
        ctx.dice.on_roll = lambda who, text, sides, value, *rest: log(
            who, text, sides, sides + 1 - value, *rest)
        ctx.dice.roll(6, "", "the GM's own die")
        ctx.dice.on_roll = log

    phases = tuple(dataclasses.replace(p, run=run) if p is build else p for p in claims.phases)
    return dataclasses.replace(claims, phases=phases)


def test_the_fuzzer_verifies_every_turn(claims):
    """Every fuzzed turn goes through ``verify`` (as the GM, with the secret): a turn whose
    logged die is not its revealed seed's is caught; the fair turns of the other tests here
    never are."""
    cheat = _logging_other_dice(claims)
    ch = fuzzing.RandomChooser(random.Random(0))
    figures = fuzzing.Figures(["claims"])
    fuzzing.play_game(cheat, fuzzing.build_game(cheat, ch),
                      [lambda pools: fuzzing.order_rows(ch, pools, 20)] * 2, figures)
    assert figures.turns == 2 and figures.uncaught_exceptions == 0
    failed = [e for e in figures.examples if "verify failed: draw" in e]
    assert [("turn 3" in e, "turn 4" in e, "the GM's own die" in e) for e in failed] == \
        [(True, False, True), (False, True, True)], figures.examples


def test_fuzzed_rows_carry_every_result_word_the_engine_writes(claims):
    """Rows already holding a final word ('private', a secret order's face, included) and rows
    holding check's words are both generated. Was: 'private' never drawn (so the games the
    seeds gave never met a row it marks resolved), nor most of check's words."""
    ch = fuzzing.RandomChooser(random.Random(1))
    game = fuzzing.build_game(claims, ch)
    pools = fuzzing.pools_of(claims, game, prepare(claims, game, "a fuzz test's secret"))
    drawn = {values.text(row.get(RESULT)) for row in fuzzing.order_rows(ch, pools, 3000)}
    assert FINAL_RESULTS | set(CHECK_WORDS.values()) <= drawn


def test_a_damage_that_is_not_one_is_reported(claims, example_state):
    harmless = fuzzing.Damage("a resource renamed", "Territories", 2, "resource",
                              (("set", "Territories", 2, "resource", "Silk"),))
    assert "resolved anyway" in fuzzing.refusal_problem(claims, example_state, harmless)
    elsewhere = fuzzing.Damage("gold said to be wrong on the wrong row", "Players", 3, "gold",
                               (("set", "Players", 2, "gold", "ten"),))
    assert "not at" in fuzzing.refusal_problem(claims, example_state, elsewhere)


# -- regressions found by the fuzzer -------------------------------------------------------------

TABLES = {
    "Players": [{"player": "Avalon", "gold": 50}, {"player": "Bretagne", "gold": 50}],
    "Territories": [{"territory": "Camelot", "owner": "Avalon"},
                    {"territory": "Ys", "owner": "Bretagne"}],
}


@pytest.mark.parametrize("stamp", [1e12, 10**12, 99999999, -10**6, float("inf")])
def test_an_order_stamped_with_a_number_no_date_is_still_resolved(claims, stamp):
    """Was: OverflowError from the timestamp cell, and the whole turn stopped."""
    orders = [{"player": "Avalon", "order": "build armies", "amount": 1, "timestamp": stamp},
              {"player": "Bretagne", "order": "build armies", "amount": 1,
               "timestamp": "2026-01-01 10:00"}]
    state = build_state(claims, TABLES, orders, settings={"deadline": "2026-01-02 00:00"})
    result = resolve(claims, state, seed=1)
    assert [r.status for r in result.results] == [Status.APPLIED, Status.APPLIED]


@pytest.mark.parametrize(("settings_", "row_of"), [
    ({"deadline": 1e12}, "deadline"),
    ({"deadline": float("inf")}, "deadline"),
    ({"deadline": "9999-12-31 12:00", "turn length (hours)": 24}, "turn length (hours)"),
    ({"deadline": "2026-01-01 12:00", "turn length (hours)": 10**12}, "turn length (hours)"),
])
def test_a_deadline_out_of_range_is_a_state_error(claims, settings_, row_of):
    """Was: OverflowError reading the deadline, or moving it on after the turn."""
    state = build_state(claims, TABLES, settings=settings_)
    game = state.tables["Game"]
    row = int(game.index[game["setting"] == row_of][0])
    with pytest.raises(StateError) as caught:
        resolve(claims, state, seed=1)
    assert ("Game", row, "value") in [(p.tab, p.row, p.column) for p in caught.value.problems]


@pytest.mark.parametrize(("tab", "twin"), [("Players", "Gold"), ("Players", "gold"),
                                           ("Orders", "Amount"), ("Game", " value")])
def test_a_column_headed_twice_is_a_state_error(claims, tab, twin):
    """Was: AttributeError ('DataFrame' object has no attribute 'tolist')."""
    state = build_state(claims, TABLES, [{"player": "Avalon", "order": "build armies",
                                          "amount": 1}])
    df = state.tables[tab]
    column = twin.strip().lower()
    state.tables[tab] = pd.concat([df, df[[column]].set_axis([twin], axis=1)], axis=1)
    with pytest.raises(StateError) as caught:
        resolve(claims, state, seed=1)
    assert (tab, 1, column) in [(p.tab, p.row, p.column) for p in caught.value.problems]


def test_a_workbook_with_a_header_written_twice_is_refused(tmp_path: Path, claims):
    """Was: the second 'gold' column silently read, and the first one written."""
    import openpyxl

    path = tmp_path / "game.xlsx"
    write_new_workbook(claims, path, build_state(claims, TABLES))
    book = openpyxl.load_workbook(path)
    ws = book["Players"]
    ws.cell(row=1, column=ws.max_column + 1, value="gold")
    ws.cell(row=2, column=ws.max_column, value=999)
    book.save(path)
    with pytest.raises(StateError, match="tab 'Players', row 1, column 'gold'"):
        resolve(claims, XlsxStore(path).load(), seed=1)


@pytest.mark.parametrize("column", ["setting", "value"])
def test_a_game_tab_without_its_setting_or_value_column_is_a_state_error(claims, column):
    """Was: KeyError from reading the settings, in resolve and in a run's deadline check."""
    state = build_state(claims, TABLES)
    state.tables["Game"] = state.tables["Game"].drop(columns=[column])
    with pytest.raises(StateError, match=f"tab 'Game', row 1, column '{column}'"):
        resolve(claims, state, seed=1)
    damage = fuzzing.Damage("no Game column", "Game", 1, column,
                            (("drop column", "Game", column),))
    assert fuzzing.refusal_problem(claims, build_state(claims, TABLES), damage) == ""


def test_a_game_tab_headed_setting_and_value_in_capitals_resolves(tmp_path: Path, claims):
    """Was: 'tab Game has no ruleset setting' from the CLI, though the engine reads headers
    whatever their case."""
    import openpyxl

    path = tmp_path / "game.xlsx"
    write_new_workbook(claims, path, build_state(claims, TABLES))
    book = openpyxl.load_workbook(path)
    book["Game"]["A1"], book["Game"]["B1"] = "Setting", "VALUE"
    book.save(path)
    (tmp_path / "game.xlsx.dice-secret").write_text("the game's dice secret")
    assert main(["resolve", str(path), "--force", "--quiet"]) == 0
    assert XlsxStore(path).load().tables["Game"].set_index("Setting").at["turn", "VALUE"] == 2


@pytest.mark.parametrize("column", ["deck", "discards"])
def test_an_engine_tab_without_one_of_its_columns_is_a_state_error(column):
    """Was: AssertionError ('DeckRow: fields ... come before unbound fields') from loading
    1800's Decks tab with a column renamed, instead of the turn stopping on the problem."""
    ruleset = rules.get("eighteen_hundred")
    tables, orders, settings = example_game(ruleset)
    state = build_state(ruleset, tables, orders, settings=settings)
    state.tables["Decks"] = state.tables["Decks"].rename(columns={column: f"{column}?"})
    with pytest.raises(StateError, match=f"tab 'Decks', row 1, column '{column}'"):
        resolve(ruleset, state, seed=1, secret=settings["seed"])


def _with_rejected_rows(path: Path) -> bool:
    results = (load_case(path).data.get("expect") or {}).get("results") or []
    return any((r if isinstance(r, str) else r.get("status")) == "rejected" for r in results)


GOLDENAGE_CASES = [p for p in sorted((Path(__file__).parent / "golden" / "goldenage")
                                     .glob("*.yaml")) if _with_rejected_rows(p)]


@pytest.mark.parametrize("path", GOLDENAGE_CASES, ids=lambda p: p.stem)
def test_goldenage_rejected_rows_change_nothing(path):
    """The fuzzer's check on every goldenage golden case with a rejected row (up-08 and nav-28
    to nav-30 are what it found): blanking those rows resolves to the same state. Was: a gated
    nation's rejected disbands still spared their upkeep (currency off by it), a refused move
    decided where a later blockade was done, and a refused embark, landing, support or
    blockade spent a movement action or ended a move."""
    case = load_case(path)
    state = case.state()
    result = resolve(case.ruleset, state, secret=GOLDEN_SECRET)
    assert fuzzing.rejected_rows_are_inert(case.ruleset, state, result,
                                           secret=GOLDEN_SECRET) == []

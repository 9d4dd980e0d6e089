"""Golden Age's Timers tab: each kind's detail columns checked when the game is loaded (a
malformed row stops the turn, naming tab, row and column), a fort being reactivated and an
abandoned ship kept as one entry (their timer), and canal investments as rows."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from sheetmaster import rules
from sheetmaster.engine.builder import build_state
from sheetmaster.engine.turn import prepare, resolve
from sheetmaster.kit import a
from sheetmaster.kit.schema import StateError
from sheetmaster.rules.goldenage.phases.processes import NEEDS, OPEN_ENDED, TIMER_COLUMNS
from sheetmaster.testing.golden import GOLDEN_SECRET, load_case

ROOT = Path(__file__).resolve().parents[1]
RULESET = rules.get("goldenage")
#: a small sea war: an abandoned French Warship (timer T1) and Prussian and British ships.
CASE = load_case(ROOT / "tests" / "golden" / "goldenage" /
                 "nav-21-an-unrecovered-ship-is-removed-after-four-seasons.yaml")

#: a complete row of each kind: what it needs, naming rows of the case's tabs
COMPLETE = {
    "production": {"province": "Brest", "what": "Infantry", "count": 2},
    "construction": {"province": "Brest", "what": "Factory"},
    "port upgrade": {"province": "Brest", "level": 2},
    "railroad": {"province": "Brest", "to": "Calais"},
    "province upgrade": {"province": "Calais"},
    "fort reactivation": {"province": "Brest"},
    "capital move": {"province": "Bordeaux"},
    "canal": {"canal": "Kiel"},
    "agreement": {"agreement": "L1"},
    "salvage": {"unit": "GB-W1", "value": 20},
    "abandoned ship": {"unit": "FR-W2"},
    "occupation": {"province": "Kent"},
    "annexation": {"province": "Denmark"},
    "puppeting": {"province": "Denmark"},
    "integration": {"province": "Denmark"},
}


def _tables(timer: dict | None = None) -> dict:
    tables = copy.deepcopy(CASE.data["tables"])
    tables["Sea zones"].append({"sea zone": "Kiel Canal", "borders": "", "canal": "yes"})
    tables["Canals"] = [{"canal": "Kiel", "sea zone": "Kiel Canal", "cost": 200,
                         "owner": "Prussia", "state": "building"}]
    tables["Agreements"] = [{"agreement": "L1", "kind": "loan", "payer": "France",
                             "payee": "Britain", "payment": 10, "payments left": 2,
                             "next due on turn": 10, "status": "open"}]
    tables["Units"].append({"unit": "FR-W2", "nation": "", "type": "Warship", "at": "Baltic"})
    tables["Timers"].append({"timer": "T2", "kind": "abandoned ship", "owner": "France",
                             "subject": "FR-W2", "started on turn": 8, "turns left": 3,
                             "due on turn": 11, "status": "running", "unit": "FR-W2"})
    if timer is not None:
        tables["Timers"].append({"timer": "T3", "owner": "France", "subject": "x",
                                 "started on turn": 8, "status": "running", **timer})
    return tables


def _state(tables: dict):
    return build_state(RULESET, tables, [], turn=CASE.data["turn"],
                       settings=CASE.data["settings"])


def _row(kind: str, **cells) -> dict:
    turns = {} if kind in OPEN_ENDED else {"turns left": 2, "due on turn": 10}
    return {"kind": kind, **turns, **COMPLETE[kind], **cells}


def _refused(tables: dict) -> str:
    with pytest.raises(StateError) as refused:
        prepare(RULESET, _state(tables), GOLDEN_SECRET)
    return str(refused.value)


def test_every_kind_has_a_complete_row_here():
    assert set(COMPLETE) == set(NEEDS)
    assert all(set(NEEDS[k]) <= set(COMPLETE[k]) for k in NEEDS)
    assert {c.name for c in TIMER_COLUMNS} >= {c for k in NEEDS for c in NEEDS[k]}


@pytest.mark.parametrize("kind", sorted(NEEDS))
def test_a_complete_row_of_each_kind_loads(kind):
    prepared = prepare(RULESET, _state(_tables(_row(kind))), GOLDEN_SECRET)
    timer = prepared.lasting.rows["Timers"][-1]
    assert timer.kind == kind and {k: timer.details[k] for k in NEEDS[kind]} == \
        {k: COMPLETE[kind][k] for k in NEEDS[kind]}


@pytest.mark.parametrize(("kind", "column"), [(k, c) for k in sorted(NEEDS) for c in NEEDS[k]])
def test_a_kind_missing_a_column_it_needs_stops_the_turn_naming_tab_row_and_column(kind,
                                                                                    column):
    said = _refused(_tables(_row(kind, **{column: None})))
    assert f"tab 'Timers', row 4, column '{column}': is blank; {a(kind)} timer needs it" in said


@pytest.mark.parametrize(("kind", "column", "cell", "what"), [
    ("production", "province", "Atlantis", "is not a province in the Provinces tab"),
    ("railroad", "to", "Atlantis", "is not a province in the Provinces tab"),
    ("production", "what", "Fort", "is not a unit type"),
    ("production", "what", "Nationalist Rebel", "is not a unit type"),
    ("construction", "what", "Infantry", "is not a building type"),
    ("salvage", "unit", "XX-1", "is not a unit in play in the Units tab"),
    ("abandoned ship", "unit", "GB-W9", "is not a ship in play in the Units tab"),
    ("canal", "canal", "Panama", "is not a canal in the Canals tab"),
    ("agreement", "agreement", "L9", "is not an agreement in the Agreements tab"),
])
def test_a_detail_that_names_nothing_stops_the_turn(kind, column, cell, what):
    said = _refused(_tables(_row(kind, **{column: cell})))
    assert f"tab 'Timers', row 4, column '{column}': '{cell}' {what}" in said


def test_names_are_found_from_any_spelling_and_written_as_their_tab_spells_them():
    prepared = prepare(RULESET, _state(_tables(_row("railroad", province="brest",
                                                    to="CALAIS"))), GOLDEN_SECRET)
    details = prepared.lasting.rows["Timers"][-1].details
    assert (details["province"], details["to"]) == ("Brest", "Calais")


def test_a_port_under_construction_needs_its_sea_zone():
    said = _refused(_tables(_row("construction", what="Port")))
    assert "tab 'Timers', row 4, column 'sea zone': is blank; a construction timer needs it" \
        in said


def test_an_unknown_kind_and_a_wrong_length_stop_the_turn():
    said = _refused(_tables({"kind": "siege", "province": "Kent"}))
    assert "tab 'Timers', row 4, column 'kind': 'siege' is not a kind of Golden Age timer" in said
    said = _refused(_tables({**_row("production"), "turns left": None, "due on turn": None}))
    assert "tab 'Timers', row 4, column 'turns left': is blank; a production lasts a set " \
           "number of seasons" in said
    said = _refused(_tables({**_row("occupation"), "turns left": 3}))
    assert "tab 'Timers', row 4, column 'turns left': must be blank: an occupation has no set " \
           "length" in said


def test_done_and_cancelled_rows_are_history_and_not_checked():
    prepare(RULESET, _state(_tables({"kind": "siege", "status": "done"})), GOLDEN_SECRET)
    prepare(RULESET, _state(_tables({"kind": "production", "status": "cancelled"})),
            GOLDEN_SECRET)


def test_the_old_data_column_is_told_how_to_convert():
    state = _state(_tables())
    state.tables["Timers"] = state.tables["Timers"].drop(
        columns=[c.name for c in TIMER_COLUMNS]).assign(data="unit: FR-W1; zone: Baltic")
    said = _refused_state(state)
    assert "tab 'Timers', column 'data': this Timers tab has the old 'data' column" in said
    assert "move each 'key: value' of 'data' into the column of that name" in said


def _refused_state(state) -> str:
    with pytest.raises(StateError) as refused:
        prepare(RULESET, state, GOLDEN_SECRET)
    return str(refused.value)


# -- one entry: an abandoned ship, a fort being reactivated ---------------------------------

def test_an_abandoned_ship_is_its_timer_alone():
    tables = _tables()
    tables["Timers"] = tables["Timers"][:1]  # FR-W2 has no timer: it is nobody's, unexplained
    said = _refused(tables)
    assert "tab 'Units', row 5, column 'nation': is blank; only rebels and abandoned ships" \
        in said
    tables = _tables()
    tables["Units"][-1]["nation"] = "France"  # abandoned, yet France's
    said = _refused(tables)
    assert "tab 'Units', row 5, column 'nation': an abandoned ship belongs to no nation " \
           "(Timers tab, row 3)" in said
    tables = _tables()
    tables["Units"][-1]["status"] = "abandoned"  # the old second entry
    assert "tab 'Units', row 5, column 'status': 'abandoned' is no status any more" in \
        _refused(tables)
    prepared = prepare(RULESET, _state(_tables()), GOLDEN_SECRET)
    assert prepared.world.units["FR-W2"].abandoned and not prepared.world.units["PR-W1"].abandoned


def test_a_fort_being_reactivated_is_mothballed_with_its_timer_alone():
    case = load_case(ROOT / "tests" / "golden" / "goldenage" /
                     "eco-09-mothballing-and-reactivating-forts.yaml")
    state = case.state()
    result = resolve(RULESET, state, secret=GOLDEN_SECRET)
    forts = result.after.tables["Buildings"].set_index("building")["state"].to_dict()
    timers = result.after.tables["Timers"]
    assert forts["Lyon Fort"] == "mothballed"
    assert timers[["kind", "province", "status"]].values.tolist() == [
        ["fort reactivation", "Lyon", "running"]]
    # a second reactivation, or mothballing it, is refused: it is reactivating
    tables = copy.deepcopy(case.data["tables"])
    tables["Timers"] = [{"timer": "T1", "kind": "fort reactivation", "owner": "France",
                         "subject": "Fort in Lyon", "started on turn": 6, "turns left": 2,
                         "due on turn": 8, "paid": 20, "status": "running",
                         "province": "Lyon"}]
    again = build_state(RULESET, tables, [
        {"player": "France", "order": "reactivate-fort", "province": "Lyon"},
        {"player": "France", "order": "mothball-fort", "province": "Lyon"}],
        turn=case.data["turn"], settings=case.data.get("settings"))
    after = resolve(RULESET, again, secret=GOLDEN_SECRET)
    assert after.after.tables["Orders"]["reason"].tolist() == [
        "the Fort in Lyon is reactivating", "the Fort in Lyon is reactivating"]


def test_reactivating_is_no_state_of_the_buildings_tab_any_more():
    tables = _tables()
    tables["Buildings"].append({"building": "Brest Fort", "type": "Fort", "province": "Brest",
                                "state": "reactivating"})
    assert "tab 'Buildings', row 8, column 'state': 'reactivating' is not a state" in \
        _refused(tables)


# -- canal investments: a row per canal, year and investor -------------------------------------

def _canal_case():
    return load_case(ROOT / "tests" / "golden" / "goldenage" /
                     "eco-16-a-canal-is-begun-then-invested-in-up-to-50-a-year.yaml")


def test_a_nations_investments_in_one_year_are_one_row_and_invested_is_the_rows_sum():
    case = _canal_case()
    result = resolve(RULESET, case.state(), secret=GOLDEN_SECRET)
    rows = result.after.tables["Canal investments"]
    assert rows[["canal", "year", "nation", "amount"]].values.tolist() == [
        ["Biscay Canal", 1862, "France", 50], ["Biscay Canal", 1862, "Britain", 30]]
    assert result.after.tables["Canals"]["invested"].tolist() == [80]


def test_earlier_rows_count_toward_invested_and_this_years_row_toward_the_cap():
    case = _canal_case()
    tables = copy.deepcopy(case.data["tables"])
    tables["Canals"][0].update({"owner": "France", "state": "building"})
    tables["Canal investments"] = [
        {"canal": "Biscay Canal", "year": 1861, "nation": "France", "amount": 50},
        {"canal": "Biscay Canal", "year": 1862, "nation": "France", "amount": 40}]
    state = build_state(RULESET, tables, [
        {"player": "France", "order": "invest-canal", "canal": "Biscay Canal", "amount": 30}],
        turn=case.data["turn"], settings=case.data.get("settings"))
    result = resolve(RULESET, state, secret=GOLDEN_SECRET)
    assert result.after.tables["Orders"]["reason"].tolist() == [
        "invested 10 in the Biscay Canal canal (of 30: 50 a year); 100 of 120"]
    assert result.after.tables["Canal investments"]["amount"].tolist() == [50, 50]
    assert result.after.tables["Canals"]["invested"].tolist() == [100]


def test_a_canal_year_and_nation_listed_twice_and_the_old_cell_stop_the_turn():
    tables = _tables()
    tables["Canal investments"] = [
        {"canal": "Kiel", "year": 1862, "nation": "Prussia", "amount": 20},
        {"canal": "Kiel", "year": 1862, "nation": "Prussia", "amount": 30}]
    assert "tab 'Canal investments', row 3, column 'nation': Prussia's 1862 investment in " \
           "Kiel is on row 2 already" in _refused(tables)
    state = _state(_tables())
    state.tables["Canals"] = state.tables["Canals"].assign(
        **{"invested this year": "1862: Prussia 20"})
    said = _refused_state(state)
    assert "tab 'Canals', column 'invested this year': is the old layout" in said

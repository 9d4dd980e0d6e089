"""The clans ruleset end to end: the shipped workbooks, eight seasons from the command line,
the sheet contract's details, and the season benchmark (quick setting)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

from sheetmaster import rules
from sheetmaster.app.cli import main
from sheetmaster.app.report import player_report
from sheetmaster.engine.builder import build_state, example_game
from sheetmaster.engine.turn import resolve
from sheetmaster.kit.model import Status
from sheetmaster.stores.xlsx import XlsxStore

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "templates"
BENCHMARK = ROOT / "benchmarks" / "clans_season.py"


def _game(path: Path) -> dict:
    return {r[0].value: r[1].value for r in openpyxl.load_workbook(path)["Game"].iter_rows(
        min_row=2)}


def test_eight_seasons_in_a_row(tmp_path):
    path = tmp_path / "isles.xlsx"
    assert main(["new", "clans", str(path), "--example"]) == 0
    assert _game(path)["season"] == "Spring of year 2"
    for _ in range(8):
        assert main(["resolve", str(path), "-q"]) == 0
    game = _game(path)
    assert game["turn"] == 13 and game["season"] == "Spring of year 4"
    state = XlsxStore(path).load()
    clans = state.tables["Clans"]
    assert (clans["coins"] >= 0).all() and len(clans) == 4
    log = state.tables["Log"]
    assert set(log["turn"]) == set(range(5, 13))
    assert {"d10", "d100"} <= set(log["die"])
    assert "d6" not in set(log["die"])  # the Ninjas' d6 are the hirers' secret


def test_the_blank_template_has_the_clans_tabs():
    book = openpyxl.load_workbook(TEMPLATES / "clans-template.xlsx")
    assert book.sheetnames == ["How to write orders", "Game", "Orders", "Clans", "Provinces",
                               "Armies", "Advisors", "Independents", "Log"]
    state = XlsxStore(TEMPLATES / "clans-template.xlsx").load()
    assert list(state.tables["Clans"].columns)[:3] == ["clan", "capital", "religion"]
    assert len(state.tables["Provinces"]) == 0
    settings = dict(zip(state.tables["Game"]["setting"], state.tables["Game"]["value"]))
    assert settings["ruleset"] == "clans" and settings["season"] == "Spring of year 1"
    dropdowns = [dv.sqref for dv in book["Orders"].data_validations.dataValidation]
    assert len(dropdowns) == 4  # order, player, clan, blame


def test_the_example_has_four_clans_twenty_provinces_and_independents():
    tables, orders, _ = rules.get("clans").example()
    assert len(tables["Clans"]) == 4 and len(tables["Provinces"]) >= 20
    assert any(not p["owner"] for p in tables["Provinces"])
    assert {o["order"] for o in orders} >= {"raise army", "move army", "build improvement",
                                            "prospect", "hire advisor", "give coins"}


def test_the_report_has_a_section_per_clan_and_the_season_checks_orders():
    ruleset = rules.get("clans")
    tables, orders, settings = example_game(ruleset)
    state = build_state(ruleset, tables, orders, settings=settings)
    result = resolve(ruleset, state, secret="a test's dice secret")
    report = player_report(ruleset, result)
    for clan in ("Amana", "Kuroda", "Mori", "Takeda"):
        assert f"## {clan}" in report
    assert "**3b. Player turn: raising armies**" in report
    assert all(r.status is not Status.PARTIAL for r in result.results)


@pytest.mark.long  # a benchmark smoke run
def test_the_season_benchmark_runs_quickly(tmp_path):
    out = tmp_path / "season.json"
    done = subprocess.run([sys.executable, str(BENCHMARK), "--quick", "--out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "resolve s" in done.stdout and "peak MiB" in done.stdout
    row = json.loads(out.read_text(encoding="utf-8"))
    assert (row["clans"], row["provinces"]) == (8, 400)
    assert row["orders"] > 0 and row["applied"] > 0 and row["rejected"] > 0
    assert row["resolve_s"] > 0 and row["peak_mib"] > 0 and row["dice"] > 0


def test_a_clans_provinces_are_kept_as_they_change_hands():
    """Holdings (issue 26.1: each clan's provinces kept as rows, not looked up by name among
    every province) lists what a scan of the provinces' owners lists, in the order taken,
    after random changes of hands."""
    import random

    from sheetmaster.rules.clans.tables import Province
    from sheetmaster.rules.common.ownership import Holdings

    rng = random.Random(26)
    clans = ["Kai", "Mori", "Date", ""]
    provinces = [Province(f"P{i}", i + 2, "", rng.choice(clans), (), (), [], [], 0)
                 for i in range(40)]
    held = Holdings(provinces)
    taken = {c: [p for p in provinces if p.owner == c] for c in clans if c}
    for _ in range(300):
        province, clan = rng.choice(provinces), rng.choice(clans)
        if province.owner:
            taken[province.owner].remove(province)
        held.set_owner(province, clan)
        if clan:
            taken[clan].append(province)
        for c in clans[:-1]:
            assert held.rows(c) == [p for p in taken[c] if p.owner == c] == taken[c]
            assert held.of(c) == [p.name for p in held.rows(c)]
            assert held.count(c) == sum(p.owner == c for p in provinces)


def test_each_clans_armies_are_kept_as_armies_come_go_and_change_sides():
    """by_clan, which the Clans tab's army counts read (issue 26.1: not a count over every
    army of the game), holds what a scan of each clan's armies in the field finds (the
    Independents' are not kept); find_army's folded names find what a fresh fold finds."""
    import random

    from sheetmaster.kit import values
    from sheetmaster.rules.clans.tables import Army
    from sheetmaster.rules.clans.world import ClansWorld

    rng = random.Random(261)
    clans = ["Kai", "Mori", "Date", ""]
    spellings = ["Kai Spearmen 1", "KAI SPEARMEN 1", "kai  Spearmen 1", "Mori Spearmen 2"]
    world = ClansWorld()
    world.find_army("nobody")  # the folded names are kept from here on
    for _ in range(400):
        field = list(world.armies.values())
        step = rng.random()
        name = rng.choice(spellings)
        if step < 0.15 and name not in world.armies:
            world.place_army(Army(name, rng.choice(clans), "Spearmen", "Kozu"))
        elif step < 0.5 or not field:
            world.add_army(rng.choice(clans), "Spearmen", rng.choice(["Kozu", "Iga"]))
        elif step < 0.75:
            world.remove_army(rng.choice(field), "destroyed")
        else:
            world.set_army_clan(rng.choice(field), rng.choice(clans))
        for clan in clans[:-1]:
            scan = [a.name for a in world.armies.values() if a.clan == clan]
            kept = world.by_clan.get(clan, {})
            assert len(kept) == len(scan) and sorted(kept) == sorted(scan)
        assert "" not in world.by_clan and world.armies_of("") == []
        for text in [*spellings, "kai spearmen 2", "mori SPEARMEN 1"]:
            same = [a for n, a in world.armies.items() if values.fold(n) == values.fold(text)]
            assert world.find_army(text) is (world.armies.get(text) or
                                             (same[-1] if same else None))


def test_an_army_named_in_another_case_is_found_as_armies_come_and_go():
    """find_army's folded names (issue 26.1: kept as armies are raised and destroyed, not
    rebuilt from every army after each change) find what a fresh fold of the armies finds."""
    from sheetmaster.kit import values
    from sheetmaster.rules.clans.tables import Army
    from sheetmaster.rules.clans.world import ClansWorld

    world = ClansWorld()
    for name in ("Kai Spearmen 1", "Kai Archers 1", "Mori Cavalry 1"):
        world.place_army(Army(name, name.split()[0], name.split()[1], "Kozu"))

    def fresh(text: str):
        return world.armies.get(text) or {values.fold(n): a for n, a in
                                          world.armies.items()}.get(values.fold(text))

    asked = ("kai spearmen 1", "MORI  cavalry 1", "Kai Archers 1", "kai archers 2", "nobody")
    assert [world.find_army(t) for t in asked] == [fresh(t) for t in asked]
    world.remove_army(world.armies["Kai Archers 1"], "destroyed")
    world.add_army("Kai", "Archers", "Kozu")  # Kai Archers 2: its name is taken once
    world.place_army(Army("KAI SPEARMEN 1", "Mori", "Spearmen", "Kozu"))  # folds the same
    assert [world.find_army(t) for t in asked] == [fresh(t) for t in asked]
    assert world.find_army("kai spearmen 1").clan == "Mori"  # the last listed, as before
    assert world.find_army("kai archers 1") is None and world.find_army("KAI ARCHERS 2")

"""The goldenage ruleset end to end: the shipped workbooks, eight seasons from the command
line and through the Google Sheets store (against the fake), the example's size, the
nations' own reports, and the season benchmark (quick setting)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest
import yaml

from sheetmaster import rules
from sheetmaster.app.cli import main
from sheetmaster.app.report import GM, player_report
from sheetmaster.app.runs import Mode, run_turn
from sheetmaster.engine.builder import build_state
from sheetmaster.engine.turn import resolve
from sheetmaster.kit import values
from sheetmaster.kit.fairness import EXAMPLE_SECRET
from sheetmaster.stores.gsheets import RetryPolicy, SheetsStore
from sheetmaster.stores.xlsx import XlsxStore
from sheetmaster.testing.fakesheets import FakeSheetsServer
from sheetmaster.testing.fakesheets.upload import upload_workbook

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "templates"
BENCHMARK = ROOT / "benchmarks" / "goldenage_season.py"
RULESET = rules.get("goldenage")
COMPARED = ("Nations", "Provinces", "Units", "Buildings", "Railroads", "Canals", "Agreements",
            "Timers")


def _game(path: Path) -> dict:
    return {r[0].value: r[1].value for r in openpyxl.load_workbook(path)["Game"].iter_rows(
        min_row=2)}


def _plain(state, tab: str) -> list[dict]:
    df = state.tables[tab].astype(object).where(state.tables[tab].notna(), "")
    return [{k: (int(v) if isinstance(v, float) and v.is_integer() else
                 "" if v is None else v) for k, v in r.items()}
            for r in df.to_dict("records")]


@pytest.fixture(scope="module")
def eight_seasons(tmp_path_factory) -> Path:
    """The example game resolved eight times from the command line."""
    path = tmp_path_factory.mktemp("cli") / "europe.xlsx"
    assert main(["new", "goldenage", str(path), "--example"]) == 0
    assert _game(path)["season"] == "Winter 1861"
    for _ in range(8):
        assert main(["resolve", str(path), "-q", "--force"]) == 0
    return path


def test_eight_seasons_in_a_row_from_the_command_line(eight_seasons):
    game = _game(eight_seasons)
    assert game["turn"] == 12 and game["season"] == "Winter 1863"
    state = XlsxStore(eight_seasons).load()
    nations = state.tables["Nations"]
    assert len(nations) == 5 and (nations["currency"] >= 0).all()
    log = state.tables["Log"]
    assert set(log["turn"]) == set(range(4, 12))
    assert {"battle", "timer done", "naval move", "map"} <= set(log["event"])
    assert "d6" in set(log["die"])
    assert "treasury" not in set(log["event"])  # each nation's own, not the shared sheet's
    timers = state.tables["Timers"].set_index("timer")
    assert timers.at["T5", "status"] == "done"  # Prussia's Factory in Saxony, due on turn 4
    assert (eight_seasons.parent / "europe-turn-11-report.md").exists()


def test_the_same_eight_seasons_through_the_google_sheets_store(eight_seasons, tmp_path):
    """The fake Sheets API, driven by the real gspread client, resolves the same seasons to
    the same tabs as the workbook (the dice come from the game's seed and the turn)."""
    start = tmp_path / "start.xlsx"
    assert main(["new", "goldenage", str(start), "--example"]) == 0
    with FakeSheetsServer() as server:
        sid = upload_workbook(server, start)
        store = SheetsStore(sid, server.client(), retry=RetryPolicy(deadline=5))
        for _ in range(8):
            outcome = run_turn(store, Mode.RESOLVE, force=True, secret=EXAMPLE_SECRET)
            assert outcome.written
        with store.locked():
            from_sheet = store.load()
    from_file = XlsxStore(eight_seasons).load()
    assert from_sheet.tables["Game"].set_index("setting").at["turn", "value"] in (12, "12")
    for tab in COMPARED:
        left, right = _plain(from_sheet, tab), _plain(from_file, tab)
        assert len(left) == len(right), tab
        for a, b in zip(left, right):
            assert {k: str(v) for k, v in a.items() if k in b} == \
                {k: str(b[k]) for k in a if k in b}, tab


def test_the_blank_template_has_every_tab():
    book = openpyxl.load_workbook(TEMPLATES / "goldenage-template.xlsx")
    assert book.sheetnames == ["How to write orders", "Game", "Orders", "GM orders", "Nations",
                               "Provinces", "Sea zones", "Units", "Buildings", "Railroads",
                               "Canals", "Canal investments", "Agreements", "Settings",
                               "Timers", "Log"]
    state = XlsxStore(TEMPLATES / "goldenage-template.xlsx").load()
    settings = dict(zip(state.tables["Game"]["setting"], state.tables["Game"]["value"]))
    assert settings["ruleset"] == "goldenage" and settings["season"] == "setup (turn 0)"
    assert settings["turn"] == 0 and settings["land combat die"] in ("", None)
    rows = state.tables["Settings"]  # every number the rulebook withholds, to fill in
    assert {"Infantry", "Battleship", "Port", "Fort", "Income", "Tech upgrade"} <= set(
        rows["item"])
    assert (rows[["cost", "upkeep", "strength", "value"]].fillna("") == "").all().all()
    assert rows["help"].str.contains("fill in").all()


def test_the_example_is_big_enough_and_says_its_numbers_are_its_own():
    tables, orders, settings = RULESET.example()
    assert len(tables["Nations"]) >= 4 and len(tables["Provinces"]) >= 40
    assert len(tables["Sea zones"]) >= 10
    assert any(b["type"] == "Port" for b in tables["Buildings"]) and tables["Railroads"]
    assert any(c["state"] == "building" for c in tables["Canals"])
    assert any(u["at"] in {s["sea zone"] for s in tables["Sea zones"]} for u in tables["Units"])
    assert any(u.get("aboard") for u in tables["Units"])
    assert "not the printed rulebook's" in settings["game"]
    assert all("not the printed rulebook's" in r["help"] for r in tables["Settings"])


def test_each_nation_sees_its_own_treasury_and_the_gm_sees_everything():
    tables, orders, settings = RULESET.example()
    result = resolve(RULESET, build_state(RULESET, tables, orders, settings=settings),
                     secret=EXAMPLE_SECRET)
    public = player_report(RULESET, result)
    france = player_report(RULESET, result, "France")
    gm = player_report(RULESET, result, GM)
    for nation in ("France", "Britain", "Prussia", "Austria", "Ottoman Empire"):
        assert f"## {nation}" in public
    assert "income 106" in france and "income 106" in gm
    assert "income 106" not in public
    assert "income 106" not in player_report(RULESET, result, "Prussia")
    assert "Prussia invaded Bohemia from Silesia" in public
    assert "**8. Land actions and movement by foot or landship**" in public


@pytest.mark.long  # a benchmark smoke run
def test_the_season_benchmark_runs_quickly(tmp_path):
    out = tmp_path / "season.json"
    done = subprocess.run([sys.executable, str(BENCHMARK), "--quick", "--out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "resolve s" in done.stdout and "peak MiB" in done.stdout
    row = json.loads(out.read_text(encoding="utf-8"))
    assert (row["nations"], row["provinces"]) == (6, 300)
    assert row["applied"] > 0 and row["blocked"] > 0 and row["rejected"] > 0
    assert row["kinds"] >= 20 and row["dice"] > 0 and row["resolve_s"] > 0


def test_init_lays_out_a_google_sheet_that_plays_from_setup_to_spring(monkeypatch, capsys,
                                                                       tmp_path):
    """``init`` on the fake Sheets API: every tab, a Settings tab listing each number to fill
    in, then turn 0's deployment; the Spring turn stops before writing while the Infantry's
    upkeep is blank, naming it, and resolves once the GM fills it in."""
    monkeypatch.chdir(tmp_path)
    with FakeSheetsServer() as server:
        monkeypatch.setenv("SHEETMASTER_SHEETS_ENDPOINT", server.url)
        monkeypatch.setenv("SHEETMASTER_DICE_SECRET", "the test game's dice secret")
        sid = server.create_spreadsheet(title="g", sheets={"Sheet1": []})
        assert main(["init", "--sheet", sid, "--rules", "goldenage", "-q"]) == 0
        settings = server.values(sid, "Settings")
        assert settings[0][-1] == "help" and settings[1][0] == "Infantry"
        items = [row[0] for row in settings[1:]]
        assert {"Infantry", "Warship", "Port", "Income", "Tech upgrade"} <= set(items)
        assert all(not any(row[2:-1]) for row in settings[1:])  # numbers left to the GM
        game = {row[0]: row[1] for row in server.values(sid, "Game")[1:]}
        assert game["turn"] == 0 and game["season"] == "setup (turn 0)"
        server.set_values(sid, "Nations!A2", [
            ["France", "", "", 100, 2, "Paris", "", "", "", "", "", "Infantry x2"],
            ["Prussia", "", "", 100, 2, "Berlin", "", "", "", "", "", "Infantry"]])
        server.set_values(sid, "Provinces!A2", [
            ["Paris", "", "France", "", "yes", "", "", "", 2, "", "", "", "", "", "", "", "",
             "", "Lyon"],
            ["Lyon", "", "France", "", "yes", "", "", "", 2, "", "", "", "", "", "", "", "",
             "", "Paris, Berlin"],
            ["Berlin", "", "Prussia", "", "yes", "", "", "", 2, "", "", "", "", "", "", "",
             "", "", "Lyon"]])
        server.set_values(sid, "Orders!A2", [
            ["", "France", "deploy", "", "", "", "", "", "", "", "Paris", "", "Infantry"],
            ["", "France", "deploy", "", "", "", "", "", "", "", "Lyon", "", "Infantry"],
            ["", "Prussia", "deploy", "", "", "", "", "", "", "", "Paris", "", "Infantry"]])
        assert main(["resolve", "--sheet", sid, "-q"]) == 0
        orders = server.values(sid, "Orders")
        assert [row[-2] for row in orders[1:]] == ["applied", "applied", "rejected"]
        assert "Paris is not yours" in orders[3][-1]
        units = server.values(sid, "Units")[1:]
        assert [(u[0], u[4]) for u in units] == [("France Infantry 1", "Paris"),
                                                 ("France Infantry 2", "Lyon")]
        capsys.readouterr()

        assert main(["resolve", "--sheet", sid, "-q"]) != 0  # Spring: upkeep is blank
        err = capsys.readouterr().err
        assert "Settings" in err and "upkeep" in err and "Infantry" in err
        game = {row[0]: row[1] for row in server.values(sid, "Game")[1:]}
        assert game["turn"] == 1 and game["season"] == "Spring 1861"  # nothing written
        row = items.index("Infantry") + 2
        server.set_values(sid, f"Settings!E{row}", [[2]])
        assert main(["resolve", "--sheet", sid, "-q"]) == 0
        nations = {r[0]: r[3] for r in server.values(sid, "Nations")[1:]}
        assert nations == {"France": 96, "Prussia": 100}  # two Infantry at 2 each


def test_every_order_kind_has_golden_cases_where_it_is_applied_and_refused():
    """Each order kind of the source is shown working and refused (with its reason) by some
    golden case; a GM-only kind is shown applied from the GM orders tab."""
    kinds = {values.fold(n): k for k in RULESET.order_kinds for n in (k.name, *k.aliases)}
    seen: dict[str, set[str]] = {k.name: set() for k in RULESET.order_kinds}
    for path in (ROOT / "tests" / "golden" / "goldenage").glob("*.yaml"):
        case = yaml.safe_load(path.read_text(encoding="utf-8"))
        results = (case.get("expect") or {}).get("results") or []
        for order, want in zip(case.get("orders") or [], results):
            status = want if isinstance(want, str) else want["status"]
            seen[kinds[values.fold(order["order"])].name].add(
                "done" if status in ("applied", "partly applied", "partial") else "refused")
        for order in (case.get("tables") or {}).get("GM orders") or []:
            seen[kinds[values.fold(order["order"])].name].add("done")
    missing = {kind: {"done", "refused"} - got for kind, got in seen.items()
               if {"done", "refused"} - got}
    assert not missing, missing


def test_an_annexation_paused_by_rebels_completes_a_full_season_after_they_go():
    """README F52: "Annexation paused while nationalist rebels occupy the province" and a
    paused process does not count down. Due in Summer (turn 6) when the rebels rise, it is
    paused with its last season still to count; they are beaten in Autumn (turn 7), when it
    resumes; it counts that last season in Winter (turn 8) and completes then, not as soon as
    the rebels are gone."""
    from sheetmaster.kit.dice import ScriptedDice
    from sheetmaster.testing.golden import GOLDEN_SECRET, load_case

    case = load_case(ROOT / "tests" / "golden" / "goldenage" /
                     "rev-05-a-season-the-annexation-is-paused-in-does-not-count.yaml")
    settings = case.data["settings"]
    tabs = ("Nations", "Provinces", "Units", "Settings", "Timers")
    result = resolve(RULESET, case.state(), secret=GOLDEN_SECRET,
                     dice=ScriptedDice(named=case.data["draws"]))
    draws = {f"combat {u}": 6 for u in ("FR-1", "FR-2", "FR-3")}
    draws |= {f"combat Rebels Nationalist Rebel {n}": 1 for n in (1, 2)}
    seen = []
    for turn, named in ((7, draws), (8, {})):
        tables = {tab: [{k: v for k, v in row.items() if not values.is_blank(v)}
                        for row in result.after.tables[tab].to_dict("records")]
                  for tab in tabs}
        result = resolve(RULESET, build_state(RULESET, tables, turn=turn, settings=settings),
                         secret=GOLDEN_SECRET, dice=ScriptedDice(named=named))
        timer = result.after.tables["Timers"].set_index("timer").loc["T1"]
        owner = result.after.tables["Provinces"].set_index("province").at["Alsace", "owner"]
        seen.append((turn, timer["status"], timer["turns left"], owner))
    assert seen == [(7, "running", 1, "Prussia"), (8, "done", 0, "France")]


def test_an_offer_is_answered_once_and_a_name_offered_twice_is_refused():
    """README D22: the first offer of a name is the offer and its first acceptance by the
    nation it names answers it; a second acceptance finds no offer left, a second offer of
    the name is refused (the shared two-party offers of rules/common/agreements)."""
    from sheetmaster.testing.golden import GOLDEN_SECRET, load_case

    case = load_case(ROOT / "tests" / "golden" / "goldenage" /
                     "dpl-01-a-loan-offered-and-accepted.yaml")
    orders = [*case.data["orders"],
              {"player": "Austria", "order": "accept-agreement", "deal": "l1"},
              {"player": "Prussia", "order": "trade", "deal": "L1", "nation": "France",
               "amount": 5, "seasons": 2}]
    state = build_state(RULESET, case.data["tables"], orders, turn=case.data["turn"],
                        settings=case.data["settings"])
    result = resolve(RULESET, state, secret=GOLDEN_SECRET)
    assert [(r.status.value, r.reason) for r in result.results[1:]] == [
        ("applied", result.results[0].reason),
        ("rejected", "no loan or trade agreement named 'l1' was offered to you this turn"),
        ("rejected", "an agreement named 'L1' exists already")]


def _walk(world, nation: str, sea: bool = True) -> set[str]:
    """The supply network as the rule reads, zone by zone for one nation: the plain walk
    that :class:`~sheetmaster.rules.goldenage.phases.economy.Supply` must agree with
    (``sea`` False: over land and rail only)."""
    from sheetmaster.kit import LAND, RAIL, SEA
    from sheetmaster.rules.goldenage import data
    from sheetmaster.rules.goldenage.phases.economy import _open_to

    def held(name: str) -> bool:
        p = world.provinces.get(name)
        return p is not None and p.owner == nation and not p.occupied_by

    owner = world.nations.get(nation)
    if owner is None or not held(owner.capital):
        return set()
    ports, by_zone = {}, {}
    for b in world.buildings:
        if b.type == data.PORT and not b.blockaded and held(b.province):
            ports[b.province] = b.sea_zone
            by_zone.setdefault(b.sea_zone, []).append(b.province)
    seen, queue, network = {owner.capital}, [owner.capital], set()
    while queue:
        node = queue.pop()
        if node in world.provinces:
            network.add(node)
            nxt = [n for n in world.graph.neighbours(node, [LAND, RAIL]) if held(n)]
            if sea and node in ports and _open_to(world, ports[node], nation):
                nxt.append(ports[node])
        else:
            nxt = [z for z in world.graph.neighbours(node, [SEA]) if _open_to(world, z, nation)]
            nxt += by_zone.get(node, ())
        for n in nxt:
            if n not in seen:
                seen.add(n)
                queue.append(n)
    return network


@pytest.mark.parametrize("seed", range(4))
def test_every_nations_supply_network_is_the_walk_of_its_own_zone_by_zone(seed):
    """One reading of the map for every nation (issue 26.1) finds what a walk of each nation
    alone finds, with blockades cutting the sea (by rebels: closed to all; by a nation: open
    to those at peace with it), ports blockaded or cut off by land, occupied provinces and a
    capital lost."""
    import random

    from sheetmaster.engine.turn import prepare
    from sheetmaster.rules.goldenage import data
    from sheetmaster.rules.goldenage.phases.economy import Supply

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    bench = __import__("benchmarks.goldenage_season", fromlist=["generate_game"])
    game = bench.generate_game(8, 1000, 1600, seed=seed)
    ruleset = rules.get("goldenage")
    world = prepare(ruleset, build_state(ruleset, game["tables"], game["orders"],
                                         settings=game["settings"])).world
    rng = random.Random(seed)
    nations = sorted(world.nations)
    for n, zone in enumerate(sorted(world.seas)[::3]):  # the ring cut into stretches
        world.seas[zone].blockaders = [data.REBELS] if n % 2 else rng.sample(nations, 1)
    ports = [b for b in world.buildings if b.type == "Port"]
    for b in ports[::4]:  # a port cut off by land: only the sea links it
        for n in world.provinces[b.province].borders:
            world.provinces[n].occupied_by = rng.choice(nations)
    for b in ports[1::4]:
        b.blockaded = True
    for p in rng.sample(sorted(world.provinces), len(world.provinces) // 20):
        world.provinces[p].occupied_by = rng.choice(nations)
    world.provinces[world.nations[nations[0]].capital].occupied_by = nations[1]
    supply = Supply(world)
    networks = {n: supply.network(n) for n in nations}
    assert networks == {n: _walk(world, n) for n in nations}
    assert not networks[nations[0]]  # its capital occupied
    assert len(set(supply.stretch.values())) > 1  # the blockades cut the open sea apart
    assert any(networks[n] != _walk(world, n, sea=False) for n in nations)  # ports link


def test_a_new_units_id_and_a_deals_name_are_checked_against_every_name_ever_given():
    """new_unit_id and deal_taken (issue 26.1: searched on from where they stopped, and
    kept as names are added) find what a search of every name finds."""
    from sheetmaster.rules.goldenage.tables import Agreement, Unit
    from sheetmaster.rules.goldenage.world import GoldenWorld

    world = GoldenWorld(turn=3)
    for name in ("Rebels Infantry 1", "rebels infantry 2", "Rebels Infantry 4"):
        world._keys.add(name.casefold())
    first = world.new_unit_id("", "Infantry")
    assert first == "Rebels Infantry 3" and world.new_unit_id("", "Infantry") == first
    world.add_unit(Unit(first, "", "Infantry", 1, "P1", (), 0, "", "", ""))
    assert world.new_unit_id("", "Infantry") == "Rebels Infantry 5"
    assert world.new_unit_id("France", "Infantry") == "France Infantry 1"
    assert not world.deal_taken("T-1")
    world.add_agreement(Agreement("T-1", "trade", "France", "Spain", 5, 4, 4, 0, "open", ""))
    assert world.deal_taken("t-1") and world.agreements["T-1"].payee == "Spain"

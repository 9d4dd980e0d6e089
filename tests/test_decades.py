"""The decades ruleset end to end: the shipped workbooks, the example game eight turns in a
row from the command line and through the Google Sheets store against the fake, init on a
Google Sheet, the sheet contract's checks, and a turn under Google faults."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from sheetmaster import rules
from sheetmaster.app.cli import main
from sheetmaster.app.exits import Exit
from sheetmaster.app.report import player_report
from sheetmaster.app.runs import Mode, run_turn
from sheetmaster.engine.builder import build_state
from sheetmaster.engine.turn import resolve
from sheetmaster.kit.fairness import EXAMPLE_SECRET, SECRET_ENV
from sheetmaster.kit.schema import StateError
from sheetmaster.rules.decades.load import government_warnings
from sheetmaster.rules.decades.tables import Government
from sheetmaster.stores.gsheets import RetryPolicy, SheetsStore
from sheetmaster.stores.gsheets_init import plan_init, read_existing
from sheetmaster.stores.xlsx import XlsxStore
from sheetmaster.testing.fakesheets import FakeSheetsServer
from sheetmaster.testing.fakesheets.upload import state_rows, upload_state
from sheetmaster.testing.golden import load_case
from testkit import reliability as rel

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "templates"
DECADES = rules.get("decades")
TURNS = 8


def _game(path: Path) -> dict:
    return {r[0].value: r[1].value for r in openpyxl.load_workbook(path)["Game"].iter_rows(
        min_row=2)}


def example_state():
    """The example game as `new --example` writes it: its (public) dice secret out of the
    Game tab."""
    tables, orders, settings = DECADES.example()
    settings = {k: v for k, v in settings.items() if k != "seed"}
    return build_state(DECADES, tables, orders, settings=settings)


def test_the_example_has_what_the_issue_asks_for():
    tables, orders, settings = DECADES.example()
    states = tables["States"]
    players = [s for s in states if s["player"]]
    assert len(players) >= 6 and len(states) - len(players) >= 3
    provinces = tables["Provinces"]
    assert len(provinces) == 60 and len({p["continent"] for p in provinces}) == 2
    assert any(o["order"] == "declare war" for o in orders)
    assert any(s.get("union with") for s in states)
    colonizing = [t for t in tables["Timers"] if t["kind"] == "colonization"]
    assert colonizing and all(t["status"] == "running" for t in colonizing)
    assert {"stability cost", "happiness drift", "start year"} <= set(settings)
    assert "example's, not the rulebook's" in settings["example note"]


def test_eight_turns_in_a_row_from_the_cli_and_through_google_sheets(tmp_path):
    """The example resolved 8 times from the command line, and 8 times on the fake Google
    Sheet through the real gspread client: the same dice (from the game's seed), the same
    States, Provinces, Wars, Alliances, Timers and Decisions."""
    book = tmp_path / "decades.xlsx"
    assert main(["new", "decades", str(book), "--example"]) == 0
    assert _game(book)["decade"] == "1610-1619"
    with FakeSheetsServer() as server:
        sid = upload_state(server, example_state())
        store = SheetsStore(sid, server.client(), retry=RetryPolicy(deadline=5))
        for _ in range(TURNS):
            assert main(["resolve", str(book), "-q", "--force"]) == 0
            assert run_turn(store, Mode.RESOLVE, force=True, secret=EXAMPLE_SECRET).written
        with store.locked():
            on_sheet = store.load()
    game = _game(book)
    assert game["turn"] == 2 + TURNS and game["decade"] == "1690-1699"
    in_book = XlsxStore(book).load()
    log = in_book.tables["Log"]
    assert set(log["turn"]) == set(range(2, 2 + TURNS))
    details = "\n".join(str(d) for d in log["details"])
    for words in ("1 in 50 for an interregnum", "1 in 10 for", "of 20:",
                  "income for turn 10"):
        assert words in details
    wars = in_book.tables["Wars"]
    assert len(wars) >= 2 and set(wars["continent"]) == {"Occidens"}
    assert (in_book.tables["States"]["spendable"].astype(float) >= 0).all()
    assert (tmp_path / "decades-turn-9-report.md").exists()
    settings = dict(zip(on_sheet.tables["Game"]["setting"], on_sheet.tables["Game"]["value"]))
    assert _plain(settings["turn"]) == 2 + TURNS
    assert _plain(settings["last dice seed"]) == _plain(game["last dice seed"])
    for tab in ("States", "Provinces", "Wars", "Alliances", "Timers", "Decisions"):
        left, right = on_sheet.tables[tab], in_book.tables[tab]
        columns = [c for c in left.columns if c in right.columns]
        assert _cells(left, columns) == _cells(right, columns), tab


def _cells(df, columns):
    return [[_plain(v) for v in row] for row in df[columns].values.tolist()]


def _plain(value):
    if value is None or value == "" or (isinstance(value, float) and value != value):
        return ""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value if not isinstance(value, str) else value.strip()


def test_the_blank_template_has_the_decades_tabs_and_withholds_the_numbers():
    book = openpyxl.load_workbook(TEMPLATES / "decades-template.xlsx")
    assert book.sheetnames == ["How to write orders", "Game", "Orders", "GM orders", "States",
                               "Provinces", "Governments", "Technologies", "Alliances", "Wars",
                               "Timers", "Decisions", "Log"]
    state = XlsxStore(TEMPLATES / "decades-template.xlsx").load()
    assert list(state.tables["States"].columns)[:4] == ["state", "player", "government",
                                                        "religion"]
    settings = dict(zip(state.tables["Game"]["setting"], state.tables["Game"]["value"]))
    assert settings["ruleset"] == "decades" and settings["turn"] == 0
    for withheld in ("start year", "stability cost", "happiness drift"):
        assert settings[withheld] in (None, ""), withheld


def test_init_lays_out_a_google_sheet_and_protects_the_gm_orders():
    with FakeSheetsServer() as server:
        sid = server.create_spreadsheet(title="decades", sheets={"Sheet1": []})
        store = SheetsStore(sid, server.client(), retry=RetryPolicy(deadline=5))
        with store.locked():
            plan = plan_init(store, DECADES, editors=["gm@example.org"],
                             existing=read_existing(store), secret="a GM's dice secret")
            store.apply(plan.requests, "laying out the sheet")
        assert {"States", "Provinces", "Governments", "Technologies", "Alliances", "Wars",
                "GM orders", "Timers", "Decisions"} <= set(plan.protected)
        assert "Orders" not in plan.protected
        assert server.values(sid, "States")[0][:3] == ["state", "player", "government"]
        game = {row[0]: row[1] for row in server.values(sid, "Game")[1:]}
        assert game["ruleset"] == "decades" and game["turn"] == 0


def test_a_broken_sheet_tells_each_problem_once():
    case = load_case(ROOT / "tests/golden/decades/state-every-problem-at-once.yaml")
    with pytest.raises(StateError) as caught:
        resolve(DECADES, case.state(), seed=1)
    where = [(p.tab, p.row, p.column) for p in caught.value.problems]
    assert sorted(where, key=str) == sorted([
        ("States", 2, "stability"), ("States", 2, "government"), ("Provinces", 4, "owner"),
        ("Technologies", 2, "acceptable governments"), ("Provinces", 2, "value"),
        ("States", 3, "happiness"), ("Alliances", 2, "members"), ("Game", 16, "value"),
    ], key=str)


def test_the_report_has_a_section_per_state_and_each_turn_step():
    result = resolve(DECADES, example_state(), seed=7)
    report = player_report(DECADES, result)
    for state in ("Castile", "Francia", "Saxony", "Venice", "Muscovy", "Ottomans", "Granada"):
        assert f"## {state}" in report
    assert "**7. The next turn opens: technology, modifiers, interregnums, income**" in report
    gm = player_report(DECADES, result, "GM")
    assert "| GM orders, row 2 | stability hit | applied |" in gm  # the tab named (issue 27)
    assert "| -2 |" not in gm


def test_gm_orders_are_named_by_their_tab_in_the_output_and_json_keeps_its_numbers(
        tmp_path, capsys):
    import json

    game = tmp_path / "decades.xlsx"
    assert main(["new", "decades", str(game), "--example", "-q"]) == 0
    assert main(["resolve", str(game), "--force", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert "  GM orders, row 2  Poland - stability hit -> applied" in out
    assert "row -" not in out
    assert main(["resolve", str(game), "--force", "--dry-run", "--json", "-q"]) == 0
    orders = json.loads(capsys.readouterr().out)["orders"]
    gm = next(o for o in orders if o["order"] == "stability hit")
    assert gm["row"] == -2 and gm["tab"] == "GM orders"  # scripts' numbers stay as they were
    assert {o["tab"] for o in orders if o["row"] > 0} == {"Orders"}


def test_a_turn_under_google_faults_ends_as_a_clean_one():
    state = example_state()
    with FakeSheetsServer() as server:
        reference = rel.in_process_reference(server, state)
        tally = rel.fault_runs(server, state, reference, runs=2, rate=0.3)
    assert tally.lost == 0, "\n".join(tally.problems)
    assert tally.faults >= len(rel.FAULT_KINDS)


def test_cli_init_then_the_example_typed_in_resolves_turn_after_turn(tmp_path, monkeypatch,
                                                                      capsys):
    """A GM's way on a Google Sheet: `sheetmaster init` lays out a blank sheet, the GM types
    the example game into the tabs init made (by their headers), then `check` and three
    `resolve`s from the command line, each a decade."""
    with FakeSheetsServer() as server:
        monkeypatch.setenv("SHEETMASTER_SHEETS_ENDPOINT", server.url)
        monkeypatch.setenv(SECRET_ENV, "a GM's dice secret")
        monkeypatch.chdir(tmp_path)
        sid = server.create_spreadsheet(title="decades", sheets={"Sheet1": []})
        assert main(["init", "--sheet", sid, "--rules", "decades",
                     "--editor", "gm@example.org", "-q"]) == 0
        _type_in(server, sid, state_rows(example_state()))
        # three of the example's orders are wrong on purpose: check exits 1 and says so
        assert main(["check", "--sheet", sid, "-q"]) == Exit.REJECTED
        assert "22 orders checked, 3 would be rejected" in capsys.readouterr().out
        for turn in (2, 3, 4):
            assert main(["resolve", "--sheet", sid, "-q", "--force"]) == 0
            assert f"resolved turn {turn}" in capsys.readouterr().out
            assert (tmp_path / f"turn-{turn}-report.md").exists()
        game = {row[0]: row[1] for row in server.values(sid, "Game")[1:] if len(row) > 1}
        assert (game["turn"], game["decade"]) == (5, "1640-1649")
        log = server.values(sid, "Log")
        assert {row[0] for row in log[1:]} == {2, 3, 4}
        orders = server.values(sid, "Orders")
        result = orders[0].index("result")
        assert [row[result] for row in orders[1:]].count("rejected") == 3


def _type_in(server: FakeSheetsServer, sid: str, tabs: dict[str, list[list]]) -> None:
    """Each tab's rows under the headers init wrote (every column of the example must be
    one of them), and each Game setting on its row: the example's blank dice commitment
    over init's (which was for turn 0, not the example's turn 2)."""
    laid_out = server.values(sid, "Game")
    at = {row[0]: i for i, row in enumerate(laid_out, start=1)}
    extra = len(laid_out)
    for setting, value, *_ in tabs.pop("Game")[1:]:
        if setting not in at:
            extra += 1
            at[setting] = extra
            server.set_values(sid, f"Game!A{extra}", [[setting]])
        server.set_values(sid, f"Game!B{at[setting]}", [[value]])
    for tab, (header, *rows) in tabs.items():
        if not rows:
            continue
        columns = server.values(sid, tab)[0]
        assert set(header) <= set(columns), (tab, set(header) - set(columns))
        server.set_values(sid, f"{tab}!A2", [
            [dict(zip(header, row)).get(name, "") for name in columns] for row in rows])


def _government(name: str, **flags: bool) -> Government:
    return Government(name, 3, flags.get("tribal", False), flags.get("monarchy", False),
                      flags.get("feudal", False), flags.get("civil_war_first", False), 0, 0, 0,
                      "")


def test_a_governments_row_is_checked_against_its_name():
    """§5, §7, §10 give a government traits by its name (issue 29): a row that lacks them, or
    marks a Feudal Monarchy without the Monarchy it is, is a warning; the example's rows, and
    names the source says nothing of, are not."""
    bare = government_warnings(_government("Feudal Monarchy"))
    assert [w.split("but its ")[1].split(" is")[0] for w in bare] == [
        "'monarchy'", "'feudal'", "'civil war before enlightenment'"]
    assert "Governments row 3: 'Feudal Monarchy' is a Feudal Monarchy by its name" in bare[1]
    assert "1/20 chance of entering into a Personal Union" in bare[1]
    despotic = government_warnings(_government("despotic monarchy", monarchy=True))
    assert len(despotic) == 1 and "must take civil wars before Enlightenment" in despotic[0]
    assert government_warnings(_government("Tribal"))[0].endswith("no happiness counter (§5)")
    kingdom = government_warnings(_government("Kingdom", feudal=True))
    assert kingdom == ["Governments row 3: 'Kingdom' is marked feudal but not monarchy: a "
                       "Feudal Monarchy is one of \"All Monarchies\", with their 1 in 50 "
                       "interregnum (§10)"]
    assert government_warnings(_government("Kingdom", monarchy=True)) == []
    assert government_warnings(_government("Merchant Republic")) == []
    tables, _, _ = DECADES.example()
    assert not [w for g in tables["Governments"] for w in government_warnings(_government(
        g["government"], tribal=bool(g.get("tribal")), monarchy=bool(g.get("monarchy")),
        feudal=bool(g.get("feudal")),
        civil_war_first=bool(g.get("civil war before enlightenment"))))]


def test_check_and_resolve_say_the_warnings_and_the_log_keeps_them(tmp_path, monkeypatch,
                                                                    capsys):
    """A sheet's warning is a public WARNING event, said once: on stderr by check and resolve
    (stdout stays the command's output), in --json instead, and in the resolve's Log."""
    import json

    monkeypatch.chdir(tmp_path)
    assert main(["new", "decades", "game.xlsx", "--example", "-q"]) == 0
    book = openpyxl.load_workbook("game.xlsx")
    sheet = book["Governments"]
    header = [c.value for c in sheet[1]]
    row = next(r for r in sheet.iter_rows(min_row=2) if r[0].value == "Feudal Monarchy")
    row[header.index("feudal")].value = None
    book.save("game.xlsx")
    warning = "'Feudal Monarchy' is a Feudal Monarchy by its name, but its 'feudal' is not yes"
    capsys.readouterr()
    main(["check", "game.xlsx"])
    said = capsys.readouterr()
    assert said.err.count(warning) == 1 and warning not in said.out, said
    assert "warning: Governments row" in said.err
    main(["check", "game.xlsx", "--json"])
    said = capsys.readouterr()
    texts = [w["text"] for w in json.loads(said.out)["warnings"]]
    assert len(texts) == 1 and warning in texts[0] and warning not in said.err
    assert main(["resolve", "game.xlsx", "--force"]) == 0
    said = capsys.readouterr()
    assert said.err.count(warning) == 1 and warning not in said.out, said
    log = openpyxl.load_workbook("game.xlsx")["Log"]
    assert sum(warning in str(c.value) for r in log.iter_rows() for c in r) == 1
    assert main(["resolve", "game.xlsx", "--force", "--json"]) == 0  # the next turn: still
    said = capsys.readouterr()
    document = json.loads(said.out)
    assert [w["text"] for w in document["warnings"]] == texts and warning not in said.err
    assert [e["text"] for e in document["events"] if e["kind"] == "warning"] == texts


def test_two_sided_orders_pair_within_their_province_or_their_two_states_as_among_all():
    """decades' offers pair within what an offer and its answer share (issue 26.1: not a
    search of every order of the turn for each offer), and find the same partners."""
    import dataclasses
    import random

    from sheetmaster.kit.model import Order
    from sheetmaster.rules.decades.phases.deals import OFFERS

    rng = random.Random(7)
    states, provinces = ["A", "B", "C", "D"], ["P1", "P2", "P3"]
    kinds = ["cede province", "accept province", "ally", "become satellite",
             "accept satellite"]
    for _ in range(50):
        orders = []
        for row in range(2, 40):
            kind = rng.choice(kinds)
            fields = {"province": rng.choice(provinces)} if kind == "accept province" else \
                {"state": rng.choice(states), **({"province": rng.choice(provinces)}
                                                 if kind == "cede province" else {})}
            orders.append(Order(row, row, rng.choice(states), kind, fields))
        among_all = dataclasses.replace(OFFERS, key=lambda order: None)
        paired = OFFERS.pair_up(orders)
        assert paired == among_all.pair_up(orders) and paired


def test_a_new_state_takes_the_first_name_no_state_has_in_any_spelling():
    """free_state_name (issue 26.1: the names folded once, kept as states are added)."""
    from dataclasses import replace

    from sheetmaster.engine.builder import build_state
    from sheetmaster.engine.turn import prepare

    tables, orders, settings = rules.get("decades").example()
    world = prepare(rules.get("decades"), build_state(rules.get("decades"), tables, orders,
                                                      settings=settings)).world
    assert world.free_state_name("Lima") == "Lima"
    assert world.free_state_name("castile") == "castile (2)"
    world.add_state(replace(world.states["Poland"], name="Castile (2)"))
    assert world.free_state_name("CASTILE") == "CASTILE (3)" and "Castile (2)" in world.states


def test_who_names_whom_and_who_is_allied_follow_every_change_as_a_scan_finds_them():
    """decades' satellites, unions, alliances and free union partners come from indexes kept
    by the world's methods (issue 26.1: a scan of every state or alliance each time): after
    random changes they are what the scans they replace find."""
    import random
    from dataclasses import replace

    from sheetmaster.engine.turn import prepare
    from sheetmaster.rules.decades.tables import Alliance
    from sheetmaster.rules.decades.world import same

    tables, orders, settings = DECADES.example()
    world = prepare(DECADES, build_state(DECADES, tables, orders, settings=settings)).world
    rng = random.Random(11)

    def scanned(state):
        alive = [s for s in world.states.values() if s.alive]
        seniors = {s.union_with for s in alive if s.union_with}
        return ([s for s in alive if s.overlord == state.name],
                [s for s in alive if s.union_with == state.name],
                next((a for a in world.alliances.values() if state.name in a.members
                      and len(a.members) > 1), None),
                [a for a in world.alliances.values() if state.name in a.members],
                [s.name for s in alive if s is not state and not s.player and not s.union_with
                 and s.name not in seniors and s.name != state.overlord])

    def indexed(state):
        return (world.satellites(state), world.unions(state), world.alliance_of(state),
                world.alliances_listing(state.name), world.union_partners(state))

    changes = 0
    for step in range(400):
        names = list(world.states)
        state, other = (world.states[rng.choice(names)] for _ in range(2))
        alliance = rng.choice(list(world.alliances.values()))
        change = rng.randrange(8)
        if change == 0:
            world.set_overlord(state, rng.choice(["", other.name]))
        elif change == 1:
            world.set_union(state, rng.choice(["", other.name]))
        elif change == 2:
            world.add_state(replace(state, name=f"New {step}", status=""))
        elif change == 3 and state.alive:
            world.mark_gone(state, "gone (a test)")
        elif change == 4:
            world.join_alliance(alliance, state.name)
        elif change == 5 and alliance.members:
            world.leave_alliance(alliance, rng.choice(alliance.members))
        elif change == 6:
            world.set_members(alliance, rng.sample(names, rng.randrange(3)))
        elif change == 7:
            world.add_alliance(Alliance(f"Pact {step}", 0, [state.name, other.name], ""))
        changes += 1
        for each in (state, other, *rng.sample(list(world.states.values()), 3)):
            assert indexed(each) == scanned(each), (step, change, each.name)
        for name in (alliance.name.upper(), f" pact  {step} ", "No Such Pact"):
            assert world.alliance_named(name) is next(
                (a for a in world.alliances.values() if same(a.name, name)), None)
    assert changes > 300 and any(world.satellites(s) for s in world.states.values())
    # a union's senior partner freed by its junior's end; a state added as a senior already
    free = [s for s in world.states.values() if s.alive and not s.player][:3]
    world.set_union(free[0], free[1].name)
    world.set_union(free[2], "Later")
    assert free[1].name not in world.union_partners(free[2])
    world.mark_gone(free[0], "gone (a test)")
    assert free[1].name in world.union_partners(free[2])
    world.add_state(replace(free[2], name="Later", union_with=""))
    for each in (*free, world.states["Later"]):
        assert indexed(each) == scanned(each), each.name


def test_a_states_provinces_follow_every_change_of_hands_as_its_holdings_list_them():
    """provinces_of reads each state's rows from the holdings (issue 26.1: not a look-up
    among every province each time): after random cessions it is what the holdings name."""
    import random

    from sheetmaster.engine.turn import prepare

    tables, orders, settings = DECADES.example()
    world = prepare(DECADES, build_state(DECADES, tables, orders, settings=settings)).world
    rng = random.Random(5)
    states, provinces = list(world.states.values()), list(world.provinces.values())
    for _ in range(300):
        world.set_owner(rng.choice(provinces), rng.choice(["", *(s.name for s in states)]))
        for state in rng.sample(states, 4):
            held = world.provinces_of(state)
            assert held == [world.provinces[p] for p in world.holdings.of(state.name)]
            held.clear()  # the caller's copy
    assert sum(len(world.provinces_of(s)) for s in states) > 0


def test_a_tribes_open_civilizing_decision_is_found_as_a_scan_of_the_open_ones_finds_it():
    """civilizing reads the open decisions once a turn and keeps those owed after (issue
    26.1: a scan of every decision for each tribe asked about): it finds what the scan
    finds, the first open one of its kind naming the state."""
    import random
    from types import SimpleNamespace

    from sheetmaster.engine.turn import prepare
    from sheetmaster.kit import data_text, parse_data
    from sheetmaster.kit.decisions import OPEN, Decision, Decisions
    from sheetmaster.rules.decades.phases.tech import (
        CIVILIZED_DECISION,
        civilizing,
        owe_civilized_government,
    )

    tables, orders, settings = DECADES.example()
    world = prepare(DECADES, build_state(DECADES, tables, orders, settings=settings)).world
    rng = random.Random(3)
    states = list(world.states.values())
    rows = [Decision(f"D{n}", rng.choice([CIVILIZED_DECISION, "government"]), "GM", "?",
                     ("a",), "a", 2, "", rng.choice([OPEN, "done"]),
                     data_text({"state": rng.choice(states).name}), False)
            for n in range(30)]
    ctx = SimpleNamespace(world=world, decisions=Decisions(2, rows), turn=2,
                          emit=lambda *a, **k: None)

    def scanned(state):
        return next((d for d in ctx.decisions.open() if d.kind == CIVILIZED_DECISION
                     and parse_data(d.data).get("state") == state.name), None)

    for _ in range(20):
        for state in states:
            assert civilizing(ctx, state) is scanned(state), state.name
        owe_civilized_government(ctx, rng.choice(states), "a test")
    assert sum(civilizing(ctx, s) is not None for s in states) > len(states) // 2

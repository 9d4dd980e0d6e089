"""sheetmaster site: a static site of a game's public record (issue 27, point 7).

Every ruleset's example game, from a workbook and from a Google Sheet (the fake Sheets API):
its maps, reports and charts; nothing private on it; what players typed stays text; the same
game gives the same bytes. tests/test_site_browser.py opens the pages in Chromium.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sheetmaster import rules
from sheetmaster.app.cli import main
from sheetmaster.app.report import player_report
from sheetmaster.app.runs import Mode, run_turn
from sheetmaster.app.site import sheet_record, workbook_record
from sheetmaster.app.site.pages import ASSETS, CHART_JS, CHART_JS_SHA256, CHART_JS_VERSION
from sheetmaster.engine.builder import build_state, example_game
from sheetmaster.kit.fairness import read_secret
from sheetmaster.stores.xlsx import XlsxStore
from sheetmaster.stores.xlsx_layout import write_new_workbook
from tests.site_games import expected_series, kept_workbooks, played, site_args

RULESETS = sorted(name for name, r in rules.available().items() if r.example)


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> dict[str, Path]:
    """Each ruleset's example game, two turns resolved, and its site built into site/."""
    out = {}
    for name in RULESETS:
        folder = tmp_path_factory.mktemp(name)
        game = played(folder, name)
        assert main(["site", str(game), "--out", str(folder / "site"), "-q",
                     *site_args(name)]) == 0
        out[name] = game
    return out


def site_data(folder: Path) -> dict:
    return json.loads((folder / "site.json").read_text(encoding="utf-8"))


class _Text(HTMLParser):
    """A page's text as a reader sees it (entities decoded), and its tags."""

    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []
        self.tags: list[tuple[str, dict]] = []

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append((tag, dict(attrs)))


def page(path: Path) -> _Text:
    parsed = _Text()
    parsed.feed(path.read_text(encoding="utf-8"))
    return parsed


@pytest.mark.parametrize("name", RULESETS)
def test_every_ruleset_gets_maps_reports_and_charts(games, name):
    game = games[name]
    folder = game.parent / "site"
    data = site_data(folder)
    turns = list(kept_workbooks(game))
    assert [m["turn"] for m in data["moments"]] == turns
    for moment in data["moments"]:
        assert (folder / moment["map"]).read_bytes().startswith(b"\x89PNG")
    resolved = turns[1:]
    reports = sorted(map(int, data["reports"]))
    assert set(resolved) <= set(reports)
    for turn in set(reports) - set(resolved):  # one the example began with (1800's setup)
        assert turn < resolved[0] and "Log" in data["reports"][str(turn)]["source"]
    for turn in resolved:  # the public report each resolve wrote beside the workbook
        written = game.with_name(f"game-turn-{turn}-report.md").read_text(encoding="utf-8")
        assert data["reports"][str(turn)]["markdown"] == written
        text = " ".join(page(folder / f"turn-{turn}.html").text)
        assert f"Turn {turn} results" in text
    index = page(folder / "index.html")
    scripts = [a.get("src") for tag, a in index.tags if tag == "script"]
    assert scripts == [None, "assets/chart.umd.min.js", "assets/site.js"]  # data, library, ours
    assert all((folder / "assets" / name).is_file() for name in ASSETS)


@pytest.mark.parametrize("name", RULESETS)
def test_the_charts_hold_each_players_numbers_after_each_turn(games, name):
    """The chart data against the workbooks themselves, read with openpyxl."""
    data = site_data(games[name].parent / "site")
    charts = {c["title"]: c for c in _charts(data)}
    for title, players in expected_series(games[name], name).items():
        chart = charts[title]
        got = {s["name"]: [None if v is None else float(v) for v in s["values"]]
               for s in chart["series"]}
        want = {p: [None if v is None else float(v) for v in vs] for p, vs in players.items()
                if any(v is not None for v in vs)}
        assert got == want, title


def _charts(data: dict) -> list[dict]:
    from sheetmaster.app.site.pages import charts

    return charts(data)


def test_what_each_ruleset_charts_comes_from_its_declarations():
    from sheetmaster.app.site.numbers import measures

    titles = {name: [m.title for m in measures(rules.get(name))] for name in RULESETS}
    assert titles == {
        "claims": ["gold", "territories", "armies"],
        "clans": ["coins", "provinces", "armies"],
        "decades": ["economic value", "provinces", "military"],
        "eighteen_hundred": ["provinces", "regiments"],
        "goldenage": ["currency", "provinces", "units"],
    }


@pytest.mark.parametrize("name", ["claims", "clans", "goldenage"])
def test_a_report_rebuilt_from_the_log_is_the_one_the_turn_wrote(games, name):
    """With the game before and after the turn at hand, the report rebuilt from the Log and
    order rows is the resolve's own, byte for byte (decades' and 1800's numbers read back
    from a workbook print otherwise: 0 as 0.0)."""
    from sheetmaster.app.site.logged import logged_report

    game = games[name]
    record = workbook_record(game)
    for turn in list(kept_workbooks(game))[1:]:
        rebuilt = logged_report(record.ruleset, turn, record.latest.state,
                                record.moments[turn].state, record.moments[turn - 1].state)
        assert rebuilt == game.with_name(f"game-turn-{turn}-report.md").read_text("utf-8")


def _private_texts(game: Path, ruleset: str) -> list[str]:
    """What the first resolved turn of ``game`` had for some eyes only: lines not public,
    secret orders' reasons, players' notes (hands of cards); the turn resolved again, the same
    way, from its backup."""
    turn = list(kept_workbooks(game))[1]
    copy = game.parent / "again.xlsx"
    shutil.copy(game.parent / "game.xlsx.backups" / f"before-turn-{turn}.xlsx", copy)
    outcome = run_turn(XlsxStore(copy), Mode.RESOLVE, force=True, secret=read_secret(game))
    result = outcome.result
    assert result is not None and result.turn == turn
    public = {e.text for e in result.events if e.public}
    hidden = [e.text for e in result.events if not e.public and e.text not in public]
    hidden += [r.reason for r in result.results if r.secret and r.reason]
    hidden += [line for lines in result.notes.values() for line in lines]
    assert player_report(outcome.ruleset, result.public())  # the turn itself resolves
    return hidden


def _everything_on(folder: Path) -> str:
    """Every text the site shows or holds, as a reader reads it (markup escapes undone)."""
    texts = [" ".join(page(p).text) for p in folder.glob("*.html")]
    texts.append(json.dumps(site_data(folder), ensure_ascii=False))
    return _plain(" ".join(texts))


def _plain(text: str) -> str:
    return re.sub(r"[\\\u200b]", "", text)


@pytest.mark.parametrize("name", ["clans", "goldenage", "eighteen_hundred"])
def test_nothing_private_reaches_the_site(games, name, tmp_path):
    """Private and GM-only lines, secret orders' reasons and players' hands are on no page,
    whether the reports come from the resolve's files or are rebuilt from the Log."""
    game = games[name]
    hidden = _private_texts(game, name)
    assert hidden, "the example's first turn has something private to keep off the site"
    on_site = _everything_on(game.parent / "site")
    for text in hidden:
        assert _plain(text) not in on_site
    for report in game.parent.glob("game-turn-*-report.md"):
        report.unlink()  # the reports now come from the Log and order rows
    assert main(["site", str(game), "--out", str(tmp_path / "rebuilt"), "-q",
                 *site_args(name)]) == 0
    rebuilt = site_data(tmp_path / "rebuilt")
    assert rebuilt["reports"] and all("Log" in r["source"] for r in rebuilt["reports"].values())
    on_site = _everything_on(tmp_path / "rebuilt")
    for text in hidden:
        assert _plain(text) not in on_site


HOSTILE = "<script>alert('name')</script> & \"Avalon\""
HOSTILE_ORDER = "<img src=x onerror=alert('order')>"


def hostile_game(folder: Path) -> Path:
    """The claims example with Avalon renamed into markup and orders naming markup, a turn
    resolved, and its site (returned)."""
    ruleset = rules.get("claims")
    tables, orders, settings = example_game(ruleset)

    def swap(row: dict) -> dict:
        return {k: v.replace("Avalon", HOSTILE) if isinstance(v, str) else v
                for k, v in row.items()}

    tables = {tab: [swap(r) for r in rows] for tab, rows in tables.items()}
    orders = [swap(r) for r in orders] + [
        {"player": HOSTILE, "order": "claim neutral territory", "territory": HOSTILE_ORDER},
        {"player": HOSTILE, "order": "propose transfer", "deal": "[x](javascript:alert(1))",
         "to": "Bretagne", "item": "gold", "amount": 1}]
    game = folder / "game.xlsx"
    write_new_workbook(ruleset, game, build_state(ruleset, tables, orders, turn=2,
                                                  settings=settings))
    (folder / "game.xlsx.dice-secret").write_text("a test game's dice secret")
    assert main(["resolve", str(game), "--force", "-qq", "--no-map"]) == 0
    assert main(["site", str(game), "--out", str(folder / "site"), "-q"]) == 0
    return folder / "site"


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory) -> Path:
    return hostile_game(tmp_path_factory.mktemp("hostile"))


def test_what_players_typed_is_text_on_every_page(hostile_site):
    pages = {p.name: p.read_text(encoding="utf-8") for p in hostile_site.glob("*.html")}
    for name, html in pages.items():
        assert "<script>alert" not in html and "<img src=x" not in html, name
        tags = page(hostile_site / name).tags
        links = [a["href"] for tag, a in tags if tag == "a"]
        assert all(re.fullmatch(r"(turn-\d+|index)\.html|maps/turn-\d+\.png|assets/[\w.-]+|"
                                r"https://github\.com/sheetmaster/sheetmaster", h)
                   for h in links), links
        scripts = [a for tag, a in tags if tag == "script"]
        assert all(a.get("src", "").startswith("assets/") or a.get("type") ==
                   "application/json" for a in scripts)
    index = " ".join(page(hostile_site / "index.html").text)
    assert HOSTILE in index  # shown as text in the numbers' tables
    report = _plain(" ".join(page(hostile_site / "turn-2.html").text))
    assert HOSTILE in report and HOSTILE_ORDER in report
    assert "[x](javascript:alert(1))" in report  # the deal's name, as text: no link


def test_the_same_game_gives_the_same_bytes(games, tmp_path):
    game = games["claims"]
    assert main(["site", str(game), "--out", str(tmp_path / "again"), "-q"]) == 0
    first, again = game.parent / "site", tmp_path / "again"
    names = sorted(p.relative_to(first).as_posix() for p in first.rglob("*") if p.is_file())
    assert names == sorted(p.relative_to(again).as_posix() for p in again.rglob("*")
                           if p.is_file())
    for name in names:
        assert (first / name).read_bytes() == (again / name).read_bytes(), name
    stamps = {n: (again / n).stat().st_mtime_ns for n in names}
    assert main(["site", str(game), "--out", str(again), "-q"]) == 0
    assert {n: (again / n).stat().st_mtime_ns for n in names} == stamps  # nothing rewritten


def test_an_undone_turn_leaves_the_site(tmp_path):
    game = played(tmp_path, "claims", turns=2)
    site = tmp_path / "site"
    assert main(["site", str(game), "--out", str(site), "-q"]) == 0
    assert (site / "turn-3.html").exists() and (site / "maps" / "turn-3.png").exists()
    assert main(["undo", str(game), "-q"]) == 0
    game.with_name("game-turn-3-report.md").unlink()
    assert main(["site", str(game), "--out", str(site), "-q"]) == 0
    assert not (site / "turn-3.html").exists() and not (site / "maps" / "turn-3.png").exists()
    assert [m["turn"] for m in site_data(site)["moments"]] == [1, 2]


def test_the_site_goes_only_where_it_may(games, tmp_path, capsys):
    game = games["claims"]
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.txt").write_text("years of work")
    assert main(["site", str(game), "--out", str(mine)]) == 2
    assert "not a sheetmaster site" in capsys.readouterr().err
    assert (mine / "thesis.txt").read_text() == "years of work"
    other = games["clans"].parent / "site"
    assert main(["site", str(game), "--out", str(other)]) == 2
    assert "holds the site of another game" in capsys.readouterr().err
    assert main(["site", str(game)]) == 2
    assert "--out DIR" in capsys.readouterr().err
    assert main(["site", "--game", "avalon", "--out", str(tmp_path / "x")]) == 2
    assert "give --games FILE" in capsys.readouterr().err
    assert main(["site", str(game), "--map-image", str(tmp_path / "none.png"), "--out",
                 str(tmp_path / "x")]) == 2
    assert "does not exist" in capsys.readouterr().err
    hidden_only = tmp_path / "checkout"
    (hidden_only / ".git").mkdir(parents=True)
    assert main(["site", str(game), "--out", str(hidden_only), "-q"]) == 0
    assert (hidden_only / "index.html").exists() and (hidden_only / ".git").is_dir()


def test_a_missing_backup_is_said_on_the_site(tmp_path):
    game = played(tmp_path, "claims", turns=2)
    (tmp_path / "game.xlsx.backups" / "before-turn-3.xlsx").unlink()
    assert main(["site", str(game), "--out", str(tmp_path / "site"), "-q"]) == 0
    data = site_data(tmp_path / "site")
    assert [m["turn"] for m in data["moments"]] == [1, 3]
    assert any("after turn 2" in note for note in data["notes"])
    assert "No backup of the game after turn 2" in " ".join(page(tmp_path / "site" /
                                                                "index.html").text)


def test_a_google_sheet_site_keeps_the_turns_it_saw(tmp_path, monkeypatch):
    """A Sheet gives its last turn whole (the undo snapshot holds the game before it);
    building after every turn into the same folder keeps the maps and numbers of the
    earlier ones, while a new folder has the last two turns' maps and every turn's report,
    rebuilt from the Log."""
    from sheetmaster.stores.gsheets_client import ENDPOINT_ENV
    from sheetmaster.testing.fakesheets import FakeSheetsServer
    from sheetmaster.testing.fakesheets.upload import upload_state
    from tests.test_many_games import example_state

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SHEETMASTER_DICE_SECRET", "a test game's dice secret")
    with FakeSheetsServer() as server:
        monkeypatch.setenv(ENDPOINT_ENV, server.url)
        sid = upload_state(server, example_state("claims", -1),
                           env_secret="a test game's dice secret")
        written = {}
        for _ in range(3):
            assert main(["resolve", "--sheet", sid, "--force", "-qq", "--no-map"]) == 0
            turn = max(int(p.stem.split("-")[1]) for p in tmp_path.glob("turn-*-report.md"))
            written[turn] = (tmp_path / f"turn-{turn}-report.md").read_text("utf-8")
            assert main(["site", "--sheet", sid, "--out", "site", "-q"]) == 0
        assert main(["site", "--sheet", sid, "--out", "fresh", "-q"]) == 0
        record = sheet_record(_sheet_store(sid))
    kept, fresh = site_data(tmp_path / "site"), site_data(tmp_path / "fresh")
    turns = sorted(written)
    assert [m["turn"] for m in kept["moments"]] == [turns[0] - 1, *turns]
    assert all((tmp_path / "site" / m["map"]).is_file() for m in kept["moments"])
    assert [m["turn"] for m in fresh["moments"]] == turns[-2:]
    assert sorted(map(int, fresh["reports"])) == turns
    for turn in turns:  # each turn's report as the resolve wrote it, from the site kept
        assert kept["reports"][str(turn)]["markdown"] == written[turn]
    assert fresh["reports"][str(turns[-1])]["markdown"] == written[turns[-1]]
    assert "Balances" not in fresh["reports"][str(turns[0])]["markdown"]  # no states at hand
    assert record.notes and "undo snapshot" in record.notes[0]
    assert "undo snapshot" in " ".join(page(tmp_path / "fresh" / "index.html").text)
    assert kept["notes"] == []  # every turn it shows has its map


def _sheet_store(sid: str):
    from sheetmaster.app.commands.options import sheet_store

    return sheet_store(sid)


def test_the_vendored_chart_library_is_the_pinned_release():
    assets = Path(__file__).resolve().parents[1] / "sheetmaster" / "app" / "site" / "assets"
    library = (assets / CHART_JS).read_bytes()
    assert hashlib.sha256(library).hexdigest() == CHART_JS_SHA256
    assert f"Chart.js v{CHART_JS_VERSION}".encode() in library[:200]
    assert "MIT License" in (assets / "chart.js-LICENSE.md").read_text(encoding="utf-8")


def test_the_site_needs_no_dice_secret(games, tmp_path, monkeypatch):
    """A site is built from what every player sees: without the dice secret too, so nothing
    sealed (1800's hands of cards) is ever opened for it."""
    monkeypatch.delenv("SHEETMASTER_DICE_SECRET", raising=False)
    game = games["eighteen_hundred"]
    secret = game.with_name("game.xlsx.dice-secret")
    kept = secret.read_text(encoding="utf-8")
    secret.unlink()
    try:
        assert main(["site", str(game), "--out", str(tmp_path / "site"), "-q"]) == 0
    finally:
        secret.write_text(kept, encoding="utf-8")
    assert len(site_data(tmp_path / "site")["moments"]) == len(kept_workbooks(game))

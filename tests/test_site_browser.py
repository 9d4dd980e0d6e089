"""The game site in a real browser: the distribution's Chromium driven by Playwright.

Each example game's site is served on 127.0.0.1 (as GitHub Pages serves it) and opened from
disk: every page loads with no console error, no failed or outside request; the slider
changes the map; the charts hold each player's numbers after each turn, read from the
workbooks with openpyxl; a page with player names made of markup runs none of it.

Skipped where Chromium is not installed (Debian or Ubuntu: apt-get install chromium; .ci/run
installs it) or Playwright is missing; SHEETMASTER_CHROMIUM names another Chromium binary
(GitHub's Ubuntu runners have Google Chrome, which is found too).
"""

from __future__ import annotations

import functools
import os
import shutil
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from sheetmaster import rules
from sheetmaster.app.cli import main
from tests.site_games import expected_series, kept_workbooks, played, site_args

CHROMIUM = os.environ.get("SHEETMASTER_CHROMIUM") or next(
    (found for name in ("chromium", "chromium-browser", "google-chrome")
     if (found := shutil.which(name))), None)
playwright = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed "
                                 "(pip install playwright; it is in the test extra)")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (Debian "
                                "or Ubuntu: apt-get install chromium)")
#: what Chromium needs headless here: no sandbox (root in a container), no GPU, and nothing
#: of its own going out to the network (Playwright gives it a fresh profile each launch).
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
RULESETS = sorted(name for name, r in rules.available().items() if r.example)


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def sites(tmp_path_factory) -> dict[str, Path]:
    out = {}
    for name in RULESETS:
        folder = tmp_path_factory.mktemp(f"browse-{name}")
        game = played(folder, name, turns=2)
        assert main(["site", str(game), "--out", str(folder / "site"), "-q",
                     *site_args(name)]) == 0
        out[name] = folder / "site"
    return out


@pytest.fixture(scope="module")
def server(sites) -> Iterator[str]:
    """Every site served over HTTP on 127.0.0.1, each under its ruleset's name."""
    root = next(iter(sites.values())).parents[1]
    handler = functools.partial(_Quiet, directory=str(root))
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}"
    finally:
        httpd.shutdown()
        httpd.server_close()


def url(server: str, site: Path, name: str = "index.html") -> str:
    return f"{server}/{site.parent.name}/site/{name}"


@pytest.fixture(scope="module")
def browser() -> Iterator:
    with playwright.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


class Watched:
    """A page whose console errors and warnings, uncaught errors, failed requests, requests
    outside ``allowed`` and dialogs (an alert a script opened) are all kept."""

    def __init__(self, browser, allowed: str) -> None:
        self.page = browser.new_page(viewport={"width": 1200, "height": 900})
        self.problems: list[str] = []
        self.dialogs: list[str] = []
        page = self.page
        page.on("console", lambda m: m.type in ("error", "warning") and
                self.problems.append(f"console {m.type}: {m.text}"))
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        page.on("requestfailed", lambda r: self.problems.append(f"failed: {r.url}"))
        page.on("response", lambda r: r.status >= 400 and
                self.problems.append(f"{r.status}: {r.url}"))
        page.on("request", lambda r: r.url.startswith(allowed) or
                self.problems.append(f"outside request: {r.url}"))
        page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))

    def open(self, address: str) -> None:
        self.page.goto(address)
        self.page.wait_for_load_state("networkidle")

    def close(self) -> None:
        self.page.close()


@pytest.mark.parametrize("name", RULESETS)
def test_every_page_loads_with_no_console_error(browser, server, sites, name):
    site = sites[name]
    watched = Watched(browser, server)
    try:
        for html in sorted(site.glob("*.html")):
            watched.open(url(server, site, html.name))
            images = watched.page.eval_on_selector_all(
                "img", "all => all.filter(i => !i.hidden).map(i => i.naturalWidth)")
            assert images and all(width > 0 for width in images), html.name
        assert watched.problems == []
    finally:
        watched.close()


def test_the_site_works_opened_from_disk(browser, sites):
    site = sites["claims"]
    watched = Watched(browser, site.as_uri())
    try:
        watched.open((site / "index.html").as_uri())
        assert watched.page.evaluate("Chart.getChart(document.querySelector('canvas')) "
                                     "!== undefined")
        watched.page.focus("#turn-slider")
        watched.page.keyboard.press("Home")
        assert watched.page.get_attribute("#map", "src") == "maps/turn-1.png"
        assert watched.problems == []
    finally:
        watched.close()


def test_the_slider_changes_the_map(browser, server, sites):
    site = sites["claims"]
    watched = Watched(browser, server)
    page = watched.page
    try:
        watched.open(url(server, site))
        turns = list(kept_workbooks(site.parent / "game.xlsx"))  # 1, 2, 3
        last = turns[-1]
        assert page.get_attribute("#map", "src") == f"maps/turn-{last}.png"
        assert page.inner_text("#map-caption") == f"After turn {last}"
        assert page.is_disabled("#next") and not page.is_disabled("#previous")
        page.focus("#turn-slider")
        page.keyboard.press("Home")  # the slider as a reader moves it, with the keyboard
        assert page.get_attribute("#map", "src") == f"maps/turn-{turns[0]}.png"
        page.wait_for_function("document.getElementById('map').complete && "
                               "document.getElementById('map').naturalWidth > 0")
        assert page.inner_text("#map-caption") == f"After turn {turns[0]}"
        marked = page.evaluate("Array.from(document.querySelectorAll('canvas')).map(c => "
                               "Chart.getChart(c).options.plugins.shownTurn.index)")
        assert marked == [0, 0, 0]  # each chart marks the turn the map shows
        assert not page.is_visible("#map-report")  # the first turn shown has no report here
        assert page.is_disabled("#previous")
        page.click("#next")
        assert page.get_attribute("#map", "src") == f"maps/turn-{turns[1]}.png"
        assert page.get_attribute("#map-report", "href") == f"turn-{turns[1]}.html"
        assert page.input_value("#turn-slider") == "1"
        page.focus("#turn-slider")
        page.keyboard.press("End")
        assert page.get_attribute("#map", "src") == f"maps/turn-{last}.png"
        page.click("#map-report")
        page.wait_for_load_state("networkidle")
        assert page.url.endswith(f"turn-{last}.html")
        assert f"Turn {last} results" in page.inner_text("article")
        assert watched.problems == []
    finally:
        watched.close()


@pytest.mark.parametrize("name", RULESETS)
def test_the_charts_have_each_players_numbers(browser, server, sites, name):
    """What Chart.js draws, against the workbooks of each turn read with openpyxl."""
    site = sites[name]
    watched = Watched(browser, server)
    try:
        watched.open(url(server, site))
        drawn = watched.page.evaluate("""() => Array.from(document.querySelectorAll('canvas'))
            .map(c => Chart.getChart(c)).map(chart => ({
                title: chart.canvas.closest('figure').querySelector('h3').textContent,
                labels: chart.data.labels,
                series: chart.data.datasets.map(d => ({name: d.label, values: d.data,
                                                       colour: d.borderColor}))}))""")
        charts = {c["title"].casefold(): c for c in drawn}
        turns = list(kept_workbooks(site.parent / "game.xlsx"))
        for title, players in expected_series(site.parent / "game.xlsx", name).items():
            chart = charts[title.casefold()]
            first = rules.get(name).first_turn
            assert chart["labels"] == [str(t) if t >= first else "start" for t in turns]
            got = {s["name"]: [None if v is None else float(v) for v in s["values"]]
                   for s in chart["series"]}
            want = {p: vs for p, vs in players.items() if any(v is not None for v in vs)}
            assert got == want, title
            assert all(s["colour"].startswith("#") for s in chart["series"])
        assert watched.problems == []
    finally:
        watched.close()


def test_player_names_made_of_markup_run_nothing(browser, tmp_path):
    """Player names and orders made of script tags and markup: shown as text, never run."""
    from tests.test_site import HOSTILE, HOSTILE_ORDER, hostile_game

    site = hostile_game(tmp_path)
    watched = Watched(browser, site.as_uri())
    try:
        for html in sorted(site.glob("*.html")):
            watched.open(html.as_uri())
            assert watched.page.locator("script").count() <= 3  # data, library, site.js
        watched.open((site / "index.html").as_uri())
        legend = watched.page.evaluate("Chart.getChart(document.querySelector('canvas'))"
                                       ".data.datasets.map(d => d.label)")
        assert HOSTILE in legend
        watched.open((site / "turn-2.html").as_uri())
        text = watched.page.inner_text("article").replace("\u200b", "")
        assert HOSTILE in text and HOSTILE_ORDER in text
        assert watched.dialogs == [] and watched.problems == []
    finally:
        watched.close()

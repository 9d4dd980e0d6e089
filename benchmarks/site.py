"""The game site of the example game after eight turns: build time and bytes, and the README's
screenshot.

    python benchmarks/site.py                        # play 8 turns, build the site, measure
    python benchmarks/site.py --turns 3 --keep DIR   # fewer turns; keep the game and site
    python benchmarks/site.py --screenshot docs/images/site.png   # and photograph it

The example game (claims) is played turn after turn by a simple player for each nation: it
builds an army, claims a neutral territory next to its own and throws dice into its wars,
so the maps and charts move. Each turn is resolved as a GM would (``sheetmaster resolve``);
then ``sheetmaster site`` builds the site, timed in a fresh process, twice (the second build
finds the first and rewrites nothing). The screenshot is Chromium's (Debian's chromium,
driven by Playwright), of the index page at 1200 pixels wide, the slider moved back to the
middle turn.
"""

from __future__ import annotations

import argparse
import functools
import json
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import openpyxl

from sheetmaster.kit.values import name_list, text
from sheetmaster.stores.xlsx import XlsxStore


def orders_for(game: Path) -> list[dict[str, object]]:
    """What each nation orders this turn, from the game as it stands."""
    state = XlsxStore(game, backup=False).load().tables
    land = state["Territories"]
    owners = dict(zip(map(text, land["territory"]), map(text, land["owner"])))
    links = {text(t): name_list(b) + name_list(w) for t, b, w in
             zip(land["territory"], land["borders"], land["waterways"])}
    out: list[dict[str, object]] = []
    for player, exile in zip(map(text, state["Players"]["player"]),
                             map(text, state["Players"]["in exile"])):
        if exile:
            continue
        mine = [t for t, owner in owners.items() if owner == player]
        free = sorted({n for t in mine for n in links[t] if not owners.get(n)})
        if free:
            out.append({"player": player, "order": "claim neutral territory",
                        "territory": free[0]})
        for war, side, members, ended in zip(*(map(text, state["Wars"][c]) for c in
                                               ("war", "side", "members", "ended"))):
            if player in name_list(members) and not ended:
                out.append({"player": player, "order": "commit dice", "amount": 2,
                            "war": war, "side": side})
        out.append({"player": player, "order": "build armies", "amount": 1})
    return out


def add_orders(game: Path, orders: list[dict[str, object]]) -> None:
    """The orders typed into the Orders tab below the rows already there."""
    book = openpyxl.load_workbook(game)
    sheet = book["Orders"]
    header = [c.value for c in sheet[1]]
    for order in orders:
        sheet.append([order.get(h) for h in header])
    book.save(game)


def sheetmaster(*args: str) -> float:
    """Run the command in a fresh process; its wall time in seconds."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sheetmaster", *args, "-qq"], check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def play(folder: Path, turns: int) -> Path:
    game = folder / "example.xlsx"
    sheetmaster("new", "claims", str(game), "--example")
    for turn in range(turns):
        if turn:  # the example's first turn has its own orders
            add_orders(game, orders_for(game))
        sheetmaster("resolve", str(game), "--force", "--no-map")
    return game


def sizes(site: Path) -> dict[str, int]:
    """Bytes of the site by kind of file."""
    out = {"maps": 0, "pages": 0, "assets": 0, "data": 0}
    for path in site.rglob("*"):
        if path.is_file():
            kind = "maps" if path.parent.name == "maps" else "assets" if \
                path.parent.name == "assets" else "data" if path.suffix == ".json" else "pages"
            out[kind] += path.stat().st_size
    out["total"] = sum(out.values())
    return out


def screenshot(site: Path, picture: Path) -> None:
    """The index page in Chromium, served as GitHub Pages would serve it."""
    from playwright.sync_api import sync_playwright

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("no Chromium to take the screenshot with (apt-get install chromium)")
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=chromium, args=[
                "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run"])
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            page.goto(f"http://127.0.0.1:{server.server_port}/index.html")
            page.wait_for_load_state("networkidle")
            page.focus("#turn-slider")  # the slider moved back to the middle turn
            page.keyboard.press("Home")
            for _ in range(int(page.get_attribute("#turn-slider", "max") or 0) // 2):
                page.keyboard.press("ArrowRight")
            page.wait_for_function("document.getElementById('map').complete")
            page.evaluate("document.activeElement.blur()")
            picture.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(picture), full_page=True)
            browser.close()
    finally:
        server.shutdown()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=8, help="turns to play (default 8)")
    parser.add_argument("--keep", metavar="DIR", help="play in DIR and keep the game and site")
    parser.add_argument("--screenshot", metavar="PNG", help="photograph the site's index page")
    args = parser.parse_args(argv)
    folder = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="site-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        game = play(folder, args.turns)
        site = folder / "site"
        shutil.rmtree(site, ignore_errors=True)
        first = sheetmaster("site", str(game), "--out", str(site))
        again = sheetmaster("site", str(game), "--out", str(site))
        data = json.loads((site / "site.json").read_text(encoding="utf-8"))
        result = {"turns": args.turns, "maps": len(data["moments"]),
                  "reports": len(data["reports"]), "files": len(data["files"]),
                  "build_s": round(first, 2), "rebuild_s": round(again, 2),
                  "bytes": sizes(site)}
        print(json.dumps(result, indent=1))
        if args.screenshot:
            screenshot(site, Path(args.screenshot))
            print(f"screenshot: {args.screenshot}")
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A nightly turn on a Google Sheet: sheetmaster's few requests vs the per-tab gspread way.

Usage::

    python benchmarks/sheets_nightly.py                  # 50 players, 2000 territories,
                                                         # 5000 orders, 250 ms a request
    python benchmarks/sheets_nightly.py --latency 0.1 --players 20 --orders 2000
    python benchmarks/sheets_nightly.py --quick          # tiny game, 10 ms (for tests)
    python benchmarks/sheets_nightly.py --territories 100000 --players 1000 --orders 100000
    python benchmarks/sheets_nightly.py --runs 5         # medians of 5 turns each way
    python benchmarks/sheets_nightly.py --out results.json

Both ways run side by side in one process against the same :class:`FakeSheetsServer` (a fake
Google Sheets API over real HTTP on 127.0.0.1, driven by the real gspread client), each on
its own fresh copy of the same synthetic claims game (``claims_scale.generate_game``), with
the same latency added to every request:

(a) **sheetmaster**: ``run_turn(SheetsStore(sid, client, secret=...), Mode.SCHEDULED)`` with
    the turn's deadline an hour in the past: lock + metadata, one
    ``values.batchGetByDataFilter`` of every bound tab, one atomic ``batchUpdate`` of the
    changed cells that also releases the lock (a write over 2 MB goes in several, most of
    it in RAW ``values:batchUpdateByDataFilter`` requests, see ``sheets_payload.py``).
(b) **per tab** (what gspread-dataframe-style code does): ``client.open_by_key``, then
    ``worksheets()``, one ``get_all_values`` per tab, the same deadline check and
    ``sheetmaster.engine.turn.resolve`` on the DataFrames, then for every tab that changed a
    ``worksheet.resize`` and a ``worksheet.update`` of the whole tab (``set_with_dataframe``
    with ``resize=True``).

Requests are counted by the fake (``reset_counts`` before, ``request_count`` after), so
gspread's own metadata fetches count, and so are the bytes of the write requests' bodies.
Wall time covers the whole turn, resolve included. A whole-tab ``values.update`` passes
Google's 10 MiB limit past about 10^4 territories (Google would refuse it): the fake's limit
is lifted for the per-tab way, which is charged no requests for cutting its writes. With
``--runs N`` both ways play the turn N times, each on fresh copies, and the table shows
medians. Targets: sheetmaster uses at least 5x fewer requests and 3x less wall time.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import math
import os
import platform
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from gspread.utils import ValueRenderOption

from sheetmaster.app.runs import Mode, decide, ruleset_of, run_turn
from sheetmaster.engine.turn import resolve
from sheetmaster.kit.changes import cell_changes
from sheetmaster.kit.model import GameState
from sheetmaster.stores.gsheets import UNDO_TAB, SheetsStore
from sheetmaster.stores.xlsx import read_sheet_rows
from sheetmaster.testing.fakesheets import FakeSheetsServer
from sheetmaster.testing.fakesheets.upload import bind_game

try:  # run as a script: benchmarks/ is on sys.path
    from claims_scale import SEED, build_game_state, generate_game
except ImportError:  # imported as benchmarks.sheets_nightly
    from benchmarks.claims_scale import SEED, build_game_state, generate_game

DEFAULT_LATENCY = 0.25
#: the benchmark game's dice secret (kept outside the sheet, as a real game's is).
DICE_SECRET = "benchmark dice secret"
DEFAULT_PLAYERS = 50
DEFAULT_TERRITORIES = 2_000
DEFAULT_ORDERS = 5_000
QUICK_LATENCY = 0.01
QUICK_PLAYERS = 4
QUICK_TERRITORIES = 100
QUICK_ORDERS = 250

#: sheetmaster must use at least this many times fewer requests, and less wall time.
TARGET_REQUEST_RATIO = 5.0
TARGET_TIME_RATIO = 3.0
#: the spreadsheet's (and the Game tab's) time zone.
ZONE = "UTC"


# -- the game -----------------------------------------------------------------------------


def game_state(territories: int, players: int, orders: int, seed: int) -> tuple[GameState, int]:
    """The synthetic claims game with ``orders`` order rows (cut to size) and a deadline an
    hour ago, so a scheduled run finds the turn due; also returns the number of orders."""
    game = generate_game(territories, seed, players=players, orders=orders)
    # generate_game aims at ``orders`` rows and may overshoot a little (a deal posts 2-3
    # rows); the last posts are dropped to get the size asked for.
    rows = game.orders[:orders]
    deadline = (datetime.now(timezone.utc) - timedelta(hours=1)).strftime("%Y-%m-%d %H:%M")
    settings = dict(game.settings, deadline=deadline, timezone=ZONE,
                    **{"turn length (hours)": 24})
    state = build_game_state(dataclasses.replace(game, orders=rows, settings=settings))
    return state, len(rows)


def cell(value: Any) -> Any:
    """A DataFrame value as JSON for the Sheets API: blanks as "", numpy scalars unwrapped."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    item = getattr(value, "item", None)  # numpy scalars
    if item is not None and not isinstance(value, (str, bytes)):
        value = item()
        if isinstance(value, float) and math.isnan(value):
            return ""
    if isinstance(value, (datetime, date)):
        return value.isoformat(sep=" ") if isinstance(value, datetime) else value.isoformat()
    return value


def frame_rows(df: Any) -> list[list[Any]]:
    """Header and rows of a table, as set_with_dataframe writes them (index not included)."""
    return [[str(c) for c in df.columns],
            *([cell(v) for v in row] for row in df.itertuples(index=False, name=None))]


def upload(server: FakeSheetsServer, state: GameState) -> str:
    """A fresh spreadsheet holding the game (directly, no HTTP: not part of any timing), laid
    out and bound to its tabs as ``sheetmaster init`` leaves it (not timed either)."""
    sheets = {tab: frame_rows(df) for tab, df in state.tables.items()}
    sid = server.create_spreadsheet(title="nightly benchmark", sheets=sheets, time_zone=ZONE)
    bind_game(server, sid, DICE_SECRET)
    return sid


# -- the two ways ---------------------------------------------------------------------------


@dataclasses.dataclass
class Measured:
    """One way's nightly turn: requests, where the time went, and what it wrote."""

    way: str
    requests: int
    wall_s: float
    #: time inside HTTP calls: latency, the fake's handling, transfer, JSON encoding.
    in_requests_s: float
    #: of which the injected latency (requests x latency).
    latency_s: float
    #: the rest of it: the fake server's handling, transfer and JSON encoding.
    fake_s: float
    #: the rest: gspread and sheetmaster in this process (parsing, resolve, diffing...).
    client_s: float
    #: from the end of the last read to the start of the first write: turning the values
    #: into tables, the deadline check, the resolve and working out what to write.
    between_s: float
    by_kind: dict[str, int]
    tabs_written: int
    cells_written: int
    #: the bodies of the write requests (lock and unlock included), and the largest body.
    written_bytes: int = 0
    largest_bytes: int = 0

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class _Clock:
    """Times every HTTP call a gspread client makes (its session's ``request``)."""

    def __init__(self, client: Any) -> None:
        self.calls: list[tuple[str, float, float]] = []
        session = client.http_client.session
        send = session.request

        def timed(method: str, url: str, *args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return send(method, url, *args, **kwargs)
            finally:  # a read asks by data filter with a POST
                read = method.upper() == "GET" or url.endswith(":batchGetByDataFilter")
                self.calls.append(("GET" if read else method.upper(), began,
                                   time.perf_counter()))

        session.request = timed

    def measure(self, server: FakeSheetsServer, way: str, wall: float, tabs: int,
                cells: int) -> Measured:
        inside = sum(end - began for _, began, end in self.calls)
        latency = server.request_count * server.latency
        last_read = max(i for i, (method, _, _) in enumerate(self.calls) if method == "GET")
        first_write = next(i for i in range(last_read + 1, len(self.calls))
                           if self.calls[i][0] != "GET")
        between = self.calls[first_write][1] - self.calls[last_read][2]
        writes = [r.size for r in server.requests
                  if r.method != "GET" and not r.path.endswith(":batchGetByDataFilter")]
        return Measured(way, server.request_count, wall, inside, latency, inside - latency,
                        wall - inside, between, request_kinds(server), tabs, cells,
                        sum(writes), max((r.size for r in server.requests), default=0))


def request_kinds(server: FakeSheetsServer) -> dict[str, int]:
    """The recorded requests by method and API call, e.g. ``GET values.get``."""
    kinds: Counter[str] = Counter()
    for r in server.requests:
        last = r.path.rstrip("/").rsplit("/", 1)[-1]
        if "/values" in r.path:
            call = "values." + (last.split(":", 1)[1] if ":" in last else
                                {"GET": "get", "PUT": "update"}.get(r.method, r.method))
        elif last.endswith(":batchUpdate"):
            call = "batchUpdate"
        elif r.method == "GET":
            call = "spreadsheets.get"
        else:
            call = last
        kinds[f"{r.method} {call}"] += 1
    return dict(sorted(kinds.items()))


def sheetmaster_way(server: FakeSheetsServer, sid: str) -> Measured:
    """(a) sheetmaster's nightly run: lock, one read (by sheetId), one batchUpdate."""
    client = server.client()
    clock = _Clock(client)
    store = SheetsStore(sid, client, secret=DICE_SECRET)
    server.reset_counts()
    start = time.perf_counter()
    outcome = run_turn(store, Mode.SCHEDULED, secret=DICE_SECRET)
    wall = time.perf_counter() - start
    if not outcome.written or outcome.result is None or outcome.ruleset is None:
        raise SystemExit(f"sheetmaster did not resolve the turn: {outcome.waiting}")
    changes = cell_changes(outcome.ruleset, outcome.result)  # what save() wrote
    return clock.measure(server, "sheetmaster", wall, len({c.tab for c in changes}),
                         len(changes))


def per_tab_way(server: FakeSheetsServer, sid: str) -> Measured:
    """(b) open, read every tab, resolve, then resize and rewrite every tab that changed."""
    client = server.client()
    clock = _Clock(client)
    server.reset_counts()
    start = time.perf_counter()
    book = client.open_by_key(sid)  # spreadsheets.get: gspread fetches the metadata
    sheets = book.worksheets()  # spreadsheets.get again
    read = {ws.title: ws.get_all_values(value_render_option=ValueRenderOption.unformatted)
            for ws in sheets}
    tables = {title: read_sheet_rows([list(r) for r in rows]) for title, rows in read.items()}
    state = GameState(tables, {"sheet_timezone": book.timezone})
    ruleset = ruleset_of(state)
    waiting = decide(state, Mode.SCHEDULED)
    if waiting:
        raise SystemExit(f"the per-tab run found the turn not due: {waiting}")
    result = resolve(ruleset, state, secret=DICE_SECRET)
    names = result.before.meta.get("tab_names", {})
    changed = []
    for tab, df in result.after.tables.items():
        title = names.get(tab, tab)
        rows = frame_rows(_sheet_columns(df, read[title]))
        if _trimmed(rows) != _trimmed(read[title]):
            changed.append((title, rows))
    by_title = {ws.title: ws for ws in sheets}
    cells = 0
    for title, rows in changed:  # set_with_dataframe(ws, df, resize=True) for each
        width = max(len(r) for r in rows)
        ws = by_title[title]
        ws.resize(len(rows), width)
        ws.update(rows, "A1")
        cells += len(rows) * width
    wall = time.perf_counter() - start
    return clock.measure(server, "per tab (gspread)", wall, len(changed), cells)


def _sheet_columns(df: Any, rows: list[list[Any]]) -> Any:
    """The table without the optional columns the engine added that the tab does not have
    and that stay blank (e.g. 'email'), so the tab keeps its layout."""
    header = {str(h) for h in rows[0]} if rows else set()
    keep = [c for c in df.columns
            if c in header or any(cell(v) != "" for v in df[c].tolist())]
    return df[keep]


def _trimmed(rows: list[list[Any]]) -> list[list[Any]]:
    """Rows without trailing blank cells and trailing blank rows (as values.get gives them)."""
    out = []
    for row in rows:
        row = [cell(v) for v in row]
        while row and row[-1] == "":
            row.pop()
        out.append(row)
    while out and not out[-1]:
        out.pop()
    return out


def same_sheets(server: FakeSheetsServer, a: str, b: str) -> list[str]:
    """Tabs of the game whose values differ between the two spreadsheets after the turn
    ([] if none); sheetmaster's hidden undo snapshot is not part of the game."""
    titles = [s["properties"]["title"] for s in server.metadata(a)["sheets"]
              if s["properties"]["title"] != UNDO_TAB]
    return [t for t in titles if _trimmed(server.values(a, t)) != _trimmed(server.values(b, t))]


# -- the run --------------------------------------------------------------------------------


def _ratio(baseline: float, ours: float) -> float | None:
    return baseline / ours if ours else None


def _median_row(rows: list[Measured]) -> dict[str, Any]:
    """A way's figures over runs: the median of each (a split write's requests may differ
    by one between runs: the sheet ids the fake draws change its bytes a little), and every
    run's wall time, requests and bytes."""
    out = rows[0].as_dict()
    for name in ("wall_s", "in_requests_s", "latency_s", "fake_s", "client_s", "between_s",
                 "requests", "written_bytes", "largest_bytes"):
        out[name] = statistics.median(getattr(r, name) for r in rows)
    out["wall_runs_s"] = [r.wall_s for r in rows]
    out["requests_runs"] = [r.requests for r in rows]
    out["written_bytes_runs"] = [r.written_bytes for r in rows]
    return out


def run(args: argparse.Namespace) -> dict[str, Any]:
    """Both ways on fresh copies of the same game, against one fake server, ``args.runs``
    times."""
    state, orders = game_state(args.territories, args.players, args.orders, args.seed)
    # One untimed resolve first, so neither way pays for first-call costs (lazy imports,
    # caches) that the other would not.
    resolve(ruleset_of(state), state.copy(), secret=DICE_SECRET)
    ours_runs: list[Measured] = []
    theirs_runs: list[Measured] = []
    differing: list[str] = []
    with FakeSheetsServer() as server:
        limit = server.max_payload
        for i in range(args.runs):
            server.latency, server.max_payload = 0.0, limit
            ours_id, theirs_id = upload(server, state), upload(server, state)
            server.latency = args.latency
            gc.collect()
            ours_runs.append(sheetmaster_way(server, ours_id))
            gc.collect()
            # One values.update of a whole tab passes Google's 10 MiB limit past about 10^4
            # territories, and Google would refuse it; the limit is lifted for the per-tab
            # way so that it is charged no extra requests for cutting its writes.
            server.max_payload = None
            theirs_runs.append(per_tab_way(server, theirs_id))
            server.latency = 0.0
            if i == 0:
                differing = same_sheets(server, ours_id, theirs_id)
            server.delete_spreadsheet(ours_id)
            server.delete_spreadsheet(theirs_id)
    ours, theirs = _median_row(ours_runs), _median_row(theirs_runs)
    request_ratio = _ratio(theirs["requests"], ours["requests"])
    wall_ratio = _ratio(theirs["wall_s"], ours["wall_s"])
    return {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
        "seed": args.seed,
        "latency_s": args.latency,
        "quick": args.quick,
        "runs": args.runs,
        "game": {"players": args.players, "territories": args.territories, "orders": orders},
        "rows": [ours, theirs],
        "wall_ratios": [t.wall_s / o.wall_s for o, t in zip(ours_runs, theirs_runs)],
        "request_ratio": request_ratio,
        "wall_ratio": wall_ratio,
        "byte_ratio": _ratio(theirs["written_bytes"], ours["written_bytes"]),
        "targets": {"request_ratio": TARGET_REQUEST_RATIO, "wall_ratio": TARGET_TIME_RATIO},
        "request_verdict": "PASS" if (request_ratio or 0) >= TARGET_REQUEST_RATIO else "FAIL",
        "wall_verdict": "PASS" if (wall_ratio or 0) >= TARGET_TIME_RATIO else "FAIL",
        "same_result": not differing,
        "differing_tabs": differing,
    }


def report_text(report: dict[str, Any]) -> str:
    ours, theirs = report["rows"]
    game = report["game"]
    head = (f"{'way':<20} {'requests':>8} {'written MB':>10} {'largest MB':>10} "
            f"{'wall s':>7} {'latency s':>9} {'fake s':>6} {'client s':>8} "
            f"{'read-to-write s':>15} {'tabs written':>12} {'cells written':>13}")
    lines = [
        f"Nightly turn on a Google Sheet: {game['players']} players, {game['territories']} "
        f"territories, {game['orders']} orders (seed {report['seed']}), "
        f"{report['latency_s'] * 1000:g} ms latency per request"
        + (f"; medians of {report['runs']} runs" if report.get("runs", 1) > 1 else ""),
        "wall s = the whole turn, resolve included = latency s (requests x latency) + fake s",
        "(the rest of the time inside HTTP calls: the fake server's handling, transfer, JSON)",
        "+ client s (gspread and sheetmaster in this process); read-to-write s (part of",
        "client s) = from the last read's reply to the first write: building the tables,",
        "deadline check, resolve, working out what to write",
        "",
        head,
        "-" * len(head),
    ]
    for row in (ours, theirs):
        lines.append(f"{row['way']:<20} {row['requests']:>8g} "
                     f"{row['written_bytes'] / 1e6:>10.2f} {row['largest_bytes'] / 1e6:>10.2f} "
                     f"{row['wall_s']:>7.2f} {row['latency_s']:>9.2f} {row['fake_s']:>6.2f} "
                     f"{row['client_s']:>8.2f} {row['between_s']:>15.2f} "
                     f"{row['tabs_written']:>12} {row['cells_written']:>13}")
    rr, wr = report["request_ratio"], report["wall_ratio"]
    lines.append(f"{'ratio (per tab / sm)':<20} {_times(rr):>8} "
                 f"{_times(report.get('byte_ratio')):>10} {'':>10} {_times(wr):>7}")
    if report.get("runs", 1) > 1:
        lines.append("each run, sheetmaster / per tab: wall s " + ", ".join(
            f"{o:.2f} / {t:.2f}" for o, t in zip(ours["wall_runs_s"], theirs["wall_runs_s"]))
            + "; requests " + ", ".join(f"{o} / {t}" for o, t in zip(
                ours["requests_runs"], theirs["requests_runs"])))
    lines.append("")
    for row in (ours, theirs):
        kinds = ", ".join(f"{kind} x{n}" for kind, n in row["by_kind"].items())
        lines.append(f"requests of {row['way']}: {kinds}")
    targets = report["targets"]
    lines.append(f"target: at least {targets['request_ratio']:g}x fewer requests: "
                 f"{report['request_verdict']} ({_times(rr)}); at least "
                 f"{targets['wall_ratio']:g}x less wall time: {report['wall_verdict']} "
                 f"({_times(wr)})")
    if report.get("quick"):
        lines.append("(a --quick run: the targets are for the full-size game at 250 ms)")
    same = report["same_result"]
    lines.append("both ways left the same values in every tab: " +
                 ("yes" if same else f"NO ({', '.join(report['differing_tabs'])})"))
    return "\n".join(lines)


def _times(ratio: float | None) -> str:
    return "-" if ratio is None else f"{ratio:.1f}x"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=None,
                        help=f"seconds added to every request (default {DEFAULT_LATENCY}; "
                             f"--quick: {QUICK_LATENCY})")
    parser.add_argument("--players", type=int, default=None,
                        help=f"nations (default {DEFAULT_PLAYERS})")
    parser.add_argument("--territories", type=int, default=None,
                        help=f"territories (default {DEFAULT_TERRITORIES})")
    parser.add_argument("--orders", type=int, default=None,
                        help=f"order rows (default {DEFAULT_ORDERS})")
    parser.add_argument("--quick", action="store_true",
                        help=f"{QUICK_PLAYERS} players, {QUICK_TERRITORIES} territories, "
                             f"{QUICK_ORDERS} orders, {QUICK_LATENCY * 1000:g} ms (for tests)")
    parser.add_argument("--runs", type=int, default=1,
                        help="play the turn this many times each way; medians are shown")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", type=Path, default=None, help="also write the results as JSON")
    args = parser.parse_args(argv)
    quick = args.quick
    for name, full, small in (("latency", DEFAULT_LATENCY, QUICK_LATENCY),
                              ("players", DEFAULT_PLAYERS, QUICK_PLAYERS),
                              ("territories", DEFAULT_TERRITORIES, QUICK_TERRITORIES),
                              ("orders", DEFAULT_ORDERS, QUICK_ORDERS)):
        if getattr(args, name) is None:
            setattr(args, name, small if quick else full)
    if args.latency < 0:
        parser.error("--latency cannot be negative")
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.territories < 4 or not 2 <= args.players <= args.territories or args.orders < 1:
        parser.error("a game needs at least 4 territories, 2 to territories players and an "
                     "order")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    print(f"sheetmaster nightly Sheets benchmark: Python {platform.python_version()}, "
          f"{platform.machine()}, {os.cpu_count()} CPUs", flush=True)
    print(f"  generating and uploading the game, then running both ways at "
          f"{args.latency * 1000:g} ms a request ...", flush=True)
    report = run(args)
    print()
    print(report_text(report))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        print(f"\nresults written to {args.out}")
    return 0 if report["same_result"] else 1


if __name__ == "__main__":
    sys.exit(main())

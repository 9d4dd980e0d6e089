"""A claims game at the Google Sheets ceiling, read, resolved and written end to end.

Usage::

    python benchmarks/sheets_ceiling.py                      # 340,000 territories: just
                                                             # under 10,000,000 cells
    python benchmarks/sheets_ceiling.py --territories 100000 --latency 0.1
    python benchmarks/sheets_ceiling.py --quick              # 2,000 territories (seconds)
    python benchmarks/sheets_ceiling.py --out ceiling.json

A spreadsheet holds at most 10,000,000 cells ("up to 10 million cells or 18,278 columns",
support.google.com/drive/answer/37603). A claims game takes about 28.5 cells a territory once
a turn is written (Orders 13 columns, Territories 6, the Log's 8 a row, about one order and
one Log row a territory), its grids cut to its columns: about 345,000 territories is the
largest such game, and 10^6 territories (about 28.5 million cells) does not fit a
spreadsheet.

The fake Sheets API runs in a child process (``--serve``): it builds the synthetic game
(``claims_scale.generate_game`` via ``sheets_nightly.game_state``, one order a territory,
territories / 100 nations, the deadline an hour ago), puts it on a FakeSheetsServer with each
tab's grid the size of its data, lays it out and binds it as ``init`` does, and serves it with
``--latency`` seconds added to every request. This process is the GM's: it runs
``run_turn(SheetsStore(...), Mode.SCHEDULED)`` through the real gspread client and times each
stage; its peak memory is what a GM's machine needs, the fake's is reported apart.

Stages: the lock (a batchUpdate that returns the tab list), the read (its requests: the
fake building and sending every tab's values, and gspread parsing the JSON; then the tables
built from the rows), the resolve, and the write (what the turn changed, cell by cell and the
undo snapshot; the requests laid out as JSON; and the requests themselves, whose time is the
latency, the fake applying them and the transfer).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

DEFAULT_TERRITORIES = 340_000
QUICK_TERRITORIES = 2_000
DEFAULT_LATENCY = 0.25
#: the most cells a spreadsheet may hold.
SHEETS_MAX_CELLS = 10_000_000


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# -- the fake's process ------------------------------------------------------------------------
def serve(territories: int, latency: float, seed: int) -> int:
    """Build the game, put it on a fake, serve it until told to stop (the parent's side of
    the protocol: one JSON line out when ready, 'stop' in, one JSON line out)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from sheets_nightly import DICE_SECRET, frame_rows, game_state

    from sheetmaster.testing.fakesheets import FakeSheetsServer
    from sheetmaster.testing.fakesheets.upload import bind_game

    began = time.perf_counter()
    state, orders = game_state(territories, max(2, territories // 100), territories, seed)
    generated = time.perf_counter() - began
    with FakeSheetsServer() as server:
        server.max_payload = None  # the store keeps to 2 MB itself; the fake only records
        sheets = {tab: frame_rows(df) for tab, df in state.tables.items()}
        del state
        sid = server.create_spreadsheet(title="ceiling", sheets=sheets, time_zone="UTC",
                                        rows=1, cols=1)
        del sheets
        bind_game(server, sid, DICE_SECRET)
        before = _cells(server, sid)
        server.latency = latency
        server.reset_counts()
        print(json.dumps({"url": server.url, "sid": sid, "orders": orders,
                          "cells_before": before, "generated_s": generated,
                          "uploaded_s": time.perf_counter() - began}), flush=True)
        sys.stdin.readline()
        server.latency = 0.0
        print(json.dumps({"cells_after": _cells(server, sid), "peak_mib": _peak_mib(),
                          "requests": [(r.method, r.path.rsplit("/", 1)[-1], r.size)
                                       for r in server.requests]}), flush=True)
    return 0


def _cells(server: Any, sid: str) -> dict[str, Any]:
    """The spreadsheet's grid cells (what counts toward the ceiling) and filled cells."""
    sheets = server.metadata(sid)["sheets"]
    grid = sum(s["properties"]["gridProperties"]["rowCount"] *
               s["properties"]["gridProperties"]["columnCount"] for s in sheets)
    titles = [s["properties"]["title"] for s in sheets]
    filled = sum(sum(1 for row in server.values(sid, t) for v in row if v != "")
                 for t in titles)
    return {"grid": grid, "filled": filled}


# -- the GM's process ----------------------------------------------------------------------------
class Stages:
    """Seconds spent in each stage, and in HTTP requests."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.http: list[tuple[str, float]] = []

    @contextmanager
    def timed(self, name: str) -> Iterator[None]:
        began = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] += time.perf_counter() - began

    def wrap(self, owner: Any, attribute: str, name: str) -> None:
        """Time every call of ``owner.attribute`` as stage ``name``."""
        original = getattr(owner, attribute)

        def timed(*args: Any, **kwargs: Any) -> Any:
            with self.timed(name):
                return original(*args, **kwargs)

        setattr(owner, attribute, timed)


def play(url: str, sid: str, stages: Stages) -> dict[str, Any]:
    """The nightly turn through the real gspread client, each stage timed."""
    import gspread

    from sheetmaster.app import runs
    from sheetmaster.app.runs import Mode, run_turn
    from sheetmaster.stores import gsheets, gsheets_split
    from sheetmaster.stores.gsheets import SheetsStore
    from sheetmaster.testing.fakesheets import session_for

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from sheets_nightly import DICE_SECRET

    session = session_for(url)
    send = session.request

    def timed_request(*args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return send(*args, **kwargs)
        finally:
            url = kwargs.get("url") or (args[1] if len(args) > 1 else "")
            stages.http.append((str(url).rsplit(":", 1)[-1], time.perf_counter() - began))

    session.request = timed_request
    client = gspread.Client(auth=None, session=session)
    client.set_timeout(3600)
    store = SheetsStore(sid, client, secret=DICE_SECRET)
    stages.wrap(store, "lock", "lock")
    stages.wrap(store, "_read", "read: requests")
    stages.wrap(gsheets, "column_changes", "write: what changed")
    stages.wrap(store, "collect", "write: the cells and the undo snapshot")
    stages.wrap(gsheets_split, "plan_write", "write: requests laid out as JSON")
    stages.wrap(store, "_send", "write: requests")
    stages.wrap(runs, "resolve", "resolve")

    def progress(what: str) -> Any:
        return stages.timed("[" + what.split(" with ")[0] + "]")

    began = time.perf_counter()
    outcome = run_turn(store, Mode.SCHEDULED, secret=DICE_SECRET, progress=progress)
    wall = time.perf_counter() - began
    if not outcome.written:
        raise SystemExit(f"the turn was not written: {outcome.waiting}")
    return {"wall_s": wall, "turn": outcome.result.turn if outcome.result else None}


def stage_rows(stages: Stages) -> list[tuple[str, float]]:
    """The stages in order, parts of a stage indented."""
    s = stages.seconds
    read, write = s["[reading the game]"], s["[writing the results]"]
    requests = s["write: requests"]
    rows = [
        ("lock (batchUpdate, tab list)", s["lock"]),
        ("read", read),
        ("  requests (the fake's answer, JSON parsed)", s["read: requests"]),
        ("  tables built from the rows", read - s["read: requests"]),
        ("resolve", s["resolve"]),
        ("write", write),
        ("  what the turn changed (tables compared)", s["write: what changed"]),
        ("  the cells to write and the undo snapshot",
         s["write: the cells and the undo snapshot"]),
        ("  requests laid out as JSON", s["write: requests laid out as JSON"]),
        ("  requests sent (latency, the fake applying them)", requests),
    ]
    rows.append(("  the rest", write - sum(t for name, t in rows[-4:])))
    return rows


def run(args: argparse.Namespace) -> dict[str, Any]:
    child = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--serve", str(args.territories),
         "--latency", str(args.latency), "--seed", str(args.seed)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdin is not None
        ready = json.loads(child.stdout.readline())
        stages = Stages()
        played = play(ready["url"], ready["sid"], stages)
        child.stdin.write("stop\n")
        child.stdin.flush()
        done = json.loads(child.stdout.readline())
    finally:
        child.stdin.close() if child.stdin else None
        child.wait(timeout=600)
    requests = done["requests"]
    writes = [size for method, path, size in requests
              if method != "GET" and not path.endswith(":batchGetByDataFilter")]
    in_http = sum(t for _, t in stages.http)
    return {
        "python": platform.python_version(), "machine": platform.machine(),
        "cpus": os.cpu_count(), "territories": args.territories, "orders": ready["orders"],
        "latency_s": args.latency, "seed": args.seed,
        "cells_before": ready["cells_before"], "cells_after": done["cells_after"],
        "under_the_ceiling": done["cells_after"]["grid"] <= SHEETS_MAX_CELLS,
        "generated_s": ready["generated_s"], "uploaded_s": ready["uploaded_s"],
        "wall_s": played["wall_s"], "stages": stage_rows(stages),
        "requests": len(requests), "write_requests": len(writes) - 1,  # the lock's
        "written_bytes": sum(writes), "largest_bytes": max(s for _, _, s in requests),
        "in_http_s": in_http, "latency_total_s": len(requests) * args.latency,
        "gm_peak_mib": _peak_mib(), "fake_peak_mib": done["peak_mib"],
    }


def report_text(r: dict[str, Any]) -> str:
    before, after = r["cells_before"], r["cells_after"]
    lines = [
        f"A claims game at the Sheets ceiling: {r['territories']:,} territories, "
        f"{r['orders']:,} orders, {r['latency_s'] * 1000:g} ms a request (seed {r['seed']})",
        f"spreadsheet: {before['grid']:,} cells before the turn ({before['filled']:,} filled), "
        f"{after['grid']:,} after ({after['filled']:,} filled): "
        + ("under" if r["under_the_ceiling"] else "OVER") + " the 10,000,000-cell ceiling",
        f"(building and uploading the game, not timed: {r['uploaded_s']:.0f} s)",
        "",
        f"{'stage':<56} {'seconds':>8} {'share':>6}",
    ]
    for name, seconds in r["stages"]:
        lines.append(f"{name:<56} {seconds:>8.2f} {seconds / r['wall_s']:>6.0%}")
    lines += [
        f"{'the whole turn':<56} {r['wall_s']:>8.2f}",
        "",
        f"requests: {r['requests']} ({r['write_requests']} to write), "
        f"{r['written_bytes'] / 1e6:.1f} MB written, the largest "
        f"{r['largest_bytes'] / 1e6:.2f} MB; {r['in_http_s']:.1f} s inside requests, of "
        f"which {r['latency_total_s']:.1f} s latency",
        f"peak memory: the GM's process {r['gm_peak_mib']:,.0f} MiB; the fake's "
        f"{r['fake_peak_mib']:,.0f} MiB",
    ]
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--territories", type=int, default=None,
                        help=f"default {DEFAULT_TERRITORIES:,} (--quick: {QUICK_TERRITORIES:,})")
    parser.add_argument("--latency", type=float, default=DEFAULT_LATENCY,
                        help=f"seconds added to every request (default {DEFAULT_LATENCY})")
    parser.add_argument("--quick", action="store_true", help="a small game, for a try")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--serve", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, default=None, help="also write the results as JSON")
    args = parser.parse_args(argv)
    if args.territories is None:
        args.territories = QUICK_TERRITORIES if args.quick else DEFAULT_TERRITORIES
    return args


def main(argv: Sequence[str] | None = None, echo: Callable[[str], None] = print) -> int:
    args = parse_args(argv)
    if args.serve is not None:
        return serve(args.serve, args.latency, args.seed)
    echo(f"building {args.territories:,} territories on the fake, then one nightly turn ...")
    report = run(args)
    echo(report_text(report))
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0 if report["under_the_ceiling"] else 1


if __name__ == "__main__":
    sys.exit(main())

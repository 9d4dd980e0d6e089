"""A nightly turn on a Google Sheet at growing sizes: requests and payload per request.

Usage::

    python benchmarks/sheets_payload.py                    # 10^3, 10^4, 10^5 territories
    python benchmarks/sheets_payload.py --quick            # 100 and 1000 territories
    python benchmarks/sheets_payload.py --sizes 1e4 --limit 10485760 --out payload.json

For each size: the synthetic claims game (``claims_scale.generate_game``, about one order a
territory, a deadline an hour ago) is uploaded to the fake Sheets API (directly, not timed),
then ``run_turn(SheetsStore(...), Mode.SCHEDULED)`` plays the turn through the real gspread
client. The fake records every request's body size and refuses one over Google's hard limit
(10,485,760 bytes), as Google does; the store splits a write over ``--limit`` bytes (default:
the 2 MB Google recommends) into several requests, most of its cells in RAW values writes, in
an order that a crash cannot leave half applied (see ``sheetmaster/stores/gsheets_split.py``).
``--limit 0`` sends every write whole, to see what one request would weigh.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sheetmaster.app.runs import Mode, run_turn
from sheetmaster.stores.gsheets import SheetsStore
from sheetmaster.stores.gsheets_batches import GOOGLE_MAX_PAYLOAD, MAX_PAYLOAD
from sheetmaster.testing.fakesheets import FakeSheetsServer

try:  # run as a script: benchmarks/ is on sys.path
    from sheets_nightly import DICE_SECRET, SEED, game_state, upload
except ImportError:  # imported as benchmarks.sheets_payload
    from benchmarks.sheets_nightly import DICE_SECRET, SEED, game_state, upload

DEFAULT_SIZES = (1_000, 10_000, 100_000)
QUICK_SIZES = (100, 1_000)


def one_size(territories: int, limit: int, seed: int) -> dict[str, Any]:
    """Play one nightly turn of a game of ``territories`` on a fresh fake."""
    state, orders = game_state(territories, max(2, territories // 100), territories, seed)
    with FakeSheetsServer() as server:
        sid = upload(server, state)
        del state
        gc.collect()
        if not limit:
            server.max_payload = None  # see what one whole request would weigh
        store = SheetsStore(sid, server.client(), max_payload=limit or 2**62,
                            secret=DICE_SECRET)
        server.reset_counts()
        start = time.perf_counter()
        outcome = run_turn(store, Mode.SCHEDULED, secret=DICE_SECRET)
        wall = time.perf_counter() - start
        if not outcome.written:
            raise SystemExit(f"the turn was not written: {outcome.waiting}")
        sizes = [r.size for r in server.requests]
        kinds = [("read" if r.method == "GET" or r.path.endswith(":batchGetByDataFilter") else
                  "write" if i > 0 else "lock") for i, r in enumerate(server.requests)]
    writes = [s for s, k in zip(sizes, kinds) if k == "write"]
    return {"territories": territories, "orders": orders, "limit": limit,
            "requests": len(sizes), "write_requests": len(writes),
            "write_bytes": sum(writes), "largest_request": max(sizes),
            "over_google_limit": sum(s > GOOGLE_MAX_PAYLOAD for s in sizes),
            "over_recommended": sum(s > MAX_PAYLOAD for s in sizes), "wall_s": wall}


def table(rows: list[dict[str, Any]]) -> str:
    head = (f"{'territories':>11} {'orders':>8} {'requests':>8} {'writes':>6} "
            f"{'written MB':>10} {'largest MB':>10} {'> 2 MB':>6} {'> 10 MiB':>8} {'wall s':>7}")
    lines = [head]
    for r in rows:
        lines.append(f"{r['territories']:>11} {r['orders']:>8} {r['requests']:>8} "
                     f"{r['write_requests']:>6} {r['write_bytes'] / 1e6:>10.2f} "
                     f"{r['largest_request'] / 1e6:>10.2f} {r['over_recommended']:>6} "
                     f"{r['over_google_limit']:>8} {r['wall_s']:>7.1f}")
    return "\n".join(lines)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=None,
                        help="territories, comma separated (default 1e3,1e4,1e5)")
    parser.add_argument("--quick", action="store_true", help="100 and 1000 territories")
    parser.add_argument("--limit", type=int, default=MAX_PAYLOAD,
                        help=f"the store's largest request in bytes (default {MAX_PAYLOAD}; "
                             f"0: never split)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", type=Path, default=None, help="also write the results as JSON")
    args = parser.parse_args(argv)
    if args.sizes:
        args.sizes = [int(float(s)) for s in args.sizes.split(",")]
    else:
        args.sizes = list(QUICK_SIZES if args.quick else DEFAULT_SIZES)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    rows = []
    for size in args.sizes:
        print(f"  {size} territories ...", flush=True)
        rows.append(one_size(size, args.limit, args.seed))
    print(table(rows))
    if args.out:
        args.out.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

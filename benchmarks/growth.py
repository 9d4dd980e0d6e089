"""How every ruleset's turn grows with the game (issue 26.1), and what the scale benchmarks
of decades and 1800 share.

Usage::

    python benchmarks/growth.py                                  # all five, 2e3 and 2e4
    python benchmarks/growth.py --sizes 2e3,2e4,2e5 --runs 3 --out growth.json
    python benchmarks/growth.py --rulesets goldenage,clans --sizes 2e3,2e4
    python benchmarks/growth.py --rulesets eighteen_hundred --games /tmp/games   # keep 1800's

Each ruleset's game comes from its own benchmark's generator, sized in provinces (claims:
territories, a hundred a player; clans: 40 clans a 2,000 provinces; decades: the example
tiled; 1800: eight nations; goldenage: 30 nations and 2.5 units a province), built, then one
turn resolved in a fresh process, ``--runs`` times; the table gives the medians of the
resolve's wall and CPU seconds and each size's CPU time over the size before's (the CPU time
moves less than the wall time on a machine others share). The issue's bound: a game ten
times larger costs at most 12 times the time.

What decades' and 1800's own benchmarks share with it is in ``scaling.py``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pickle
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.scaling import BOUND, parse_sizes, peak_mib, statuses  # noqa: E402

RULESETS = ("claims", "clans", "decades", "eighteen_hundred", "goldenage")


def _game(ruleset: str, size: int) -> tuple[Any, Any, dict[str, Any]]:
    """(ruleset, state, resolve's keywords) of the benchmark game of ``size`` provinces."""
    from sheetmaster.engine.builder import build_state
    from sheetmaster.rules import get

    rules = get(ruleset)
    if ruleset == "claims":
        bench = importlib.import_module("benchmarks.claims_scale")
        return rules, bench.build_game_state(bench.generate_game(size)), \
            {"secret": bench.DICE_SECRET}
    if ruleset == "clans":
        bench = importlib.import_module("benchmarks.clans_season")
        game, secret = bench.generate_game(max(2, size * 40 // 2000), size), bench.DICE_SECRET
    elif ruleset == "goldenage":
        bench = importlib.import_module("benchmarks.goldenage_season")
        game = bench.generate_game(max(2, size * 30 // 2000), size, size * 5 // 2)
        secret = bench.DICE_SECRET
    elif ruleset == "decades":
        bench = importlib.import_module("benchmarks.decades_season")
        game, secret = bench.generate_game(size), f"{bench.DICE_SECRET} {bench.SEED}"
    else:
        game = _eighteen_hundred(size)
        secret = game["secret"]
    state = build_state(rules, game["tables"], game["orders"], settings=game["settings"])
    return rules, state, {"secret": secret}


#: a folder of generated 1800 games (--games): generating one resolves its setup turn and
#: its draft, so a version of sheetmaster with a slow setup is timed on the same turn
GAMES: Path | None = None


def _eighteen_hundred(size: int) -> dict[str, Any]:
    bench = importlib.import_module("benchmarks.eighteen_hundred_round")
    kept = GAMES / f"eighteen_hundred-{size}-{bench.SEED}.pickle" if GAMES else None
    if kept is not None and kept.exists():
        return pickle.loads(kept.read_bytes())
    game = bench.generate_game(size)
    if kept is not None:
        kept.write_bytes(pickle.dumps(game))
    return game


def table_worker(ruleset: str, size: int) -> dict[str, Any]:
    from sheetmaster.engine.turn import resolve

    rules, state, keywords = _game(ruleset, size)
    provinces = len(state.tables["Territories" if ruleset == "claims" else "Provinces"])
    wall, cpu = time.perf_counter(), time.process_time()
    result = resolve(rules, state, **keywords)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"ruleset": ruleset, "size": size, "provinces": provinces,
            "orders": len(result.results), **statuses(result), "resolve_s": wall,
            "resolve_cpu_s": cpu, "peak_mib": peak_mib()}


def growth_table(rows: list[dict[str, Any]]) -> str:
    lines = [f"{'ruleset':<17} {'provinces':>9} {'orders':>7} {'resolve s':>9} {'cpu s':>8} "
             f"{'x cpu':>6}  (a 10x game: at most {BOUND:.0f}x)"]
    for before, row in zip([None, *rows], rows):
        same = before is not None and before["ruleset"] == row["ruleset"]
        grew = f"{row['resolve_cpu_s'] / before['resolve_cpu_s']:>5.1f}x" if same else ""
        lines.append(f"{row['ruleset'] if not same else '':<17} {row['provinces']:>9} "
                     f"{row['orders']:>7} {row['resolve_s']:>9.3f} {row['resolve_cpu_s']:>8.3f} "
                     f"{grew:>6}")
    return "\n".join(lines)


def table_main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="How every ruleset's turn grows with the game")
    parser.add_argument("--rulesets", default=",".join(RULESETS))
    parser.add_argument("--sizes", type=parse_sizes, default=[2_000, 20_000])
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--games", type=Path, default=None,
                        help="a folder keeping the generated 1800 games between runs")
    parser.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    global GAMES
    GAMES = args.games
    if args.worker:
        print(json.dumps(table_worker(args.worker[0], int(args.worker[1]))))
        return 0
    rows = []
    for ruleset in args.rulesets.split(","):
        for size in args.sizes:
            runs = []
            for _ in range(args.runs):
                games = ["--games", str(args.games)] if args.games else []
                done = subprocess.run([sys.executable, __file__, "--worker", ruleset, str(size),
                                       *games], capture_output=True, text=True, check=True)
                runs.append(json.loads(done.stdout))
            row = dict(runs[0], runs=len(runs),
                       resolve_runs=[r["resolve_s"] for r in runs],
                       resolve_cpu_runs=[r["resolve_cpu_s"] for r in runs])
            for key in ("resolve_s", "resolve_cpu_s", "peak_mib"):
                row[key] = statistics.median(r[key] for r in runs)
            rows.append(row)
            print(growth_table(rows).splitlines()[-1] if len(rows) > 1 else growth_table(rows),
                  flush=True)
    if args.out:
        args.out.write_text(json.dumps({"rows": rows}, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(table_main())

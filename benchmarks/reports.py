"""How long a turn's reports take and how big they are: the public report, the GM's, and
every player's own (``player_reports``), on the synthetic claims game.

Usage::

    python benchmarks/reports.py                       # 10^3, 10^4, 10^5 territories
    python benchmarks/reports.py --quick               # 100 and 1000 territories (seconds)
    python benchmarks/reports.py --sizes 1e4 --out reports.json
    python benchmarks/reports.py --one-at-a-time       # each report made and dropped alone

Every size runs in a fresh subprocess (its peak RSS is its own). The game is
``claims_scale.generate_game(size)`` (about one order a territory, ``size // 100`` players),
built with ``claims_scale.build_game_state`` and resolved once, untimed. Then each report is
made ``--repeat`` times (default: 3 up to 10^4 territories, once above) and the best CPU
time (``time.process_time()``) and wall time are kept; sizes are the reports' UTF-8 bytes.

``--one-at-a-time`` makes each player's report and the GM's with
``player_report(ruleset, result, name)`` and drops it before the next, instead of
``player_reports``: that is what ``player_reports`` did before it grouped the turn once, and
it measures that code without holding every report in memory at once (14 GB at 10^5).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
# the checkout's own sheetmaster, whichever one is installed
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import claims_scale  # noqa: E402

DEFAULT_SIZES = (1_000, 10_000, 100_000)
QUICK_SIZES = (100, 1_000)
#: sizes up to this are timed best of 3 by default; larger ones once.
REPEAT_UP_TO = 10_000
MB = 1_000_000


def timed(make: Callable[[], Any], repeat: int) -> tuple[Any, float, float]:
    """(what ``make`` returns, best CPU seconds, best wall seconds) of ``repeat`` runs."""
    cpu = wall = float("inf")
    made = None
    for _ in range(repeat):
        made = None  # the last run's reports go before the next run makes its own
        w, c = time.perf_counter(), time.process_time()
        made = make()
        cpu, wall = min(cpu, time.process_time() - c), min(wall, time.perf_counter() - w)
    return made, cpu, wall


def size_of(text: str) -> int:
    return len(text.encode("utf-8"))


def worker(size: int, seed: int, repeat: int, one_at_a_time: bool) -> dict[str, Any]:
    """Generate, build and resolve one game, then time its reports; in its own process."""
    from sheetmaster.app.report import GM, _player_names, player_report, player_reports
    from sheetmaster.engine.turn import resolve
    from sheetmaster.rules.claims.ruleset import RULESET

    game = claims_scale.generate_game(size, seed)
    result = resolve(RULESET, claims_scale.build_game_state(game),
                     secret=claims_scale.DICE_SECRET)
    public, public_cpu, public_wall = timed(lambda: player_report(RULESET, result), repeat)
    gm, gm_cpu, gm_wall = timed(lambda: player_report(RULESET, result, GM), repeat)

    if one_at_a_time:
        def make() -> dict[str, int]:
            # each report made and dropped alone: only its size is kept
            sizes = {name: size_of(player_report(RULESET, result, name))
                     for name in _player_names(RULESET, result.after)}
            sizes[GM] = size_of(player_report(RULESET, result, GM))
            return sizes
    else:
        def make() -> dict[str, int]:
            return {name: size_of(text)
                    for name, text in player_reports(RULESET, result).items()}
    sizes, reports_cpu, reports_wall = timed(make, repeat)
    own = [n for name, n in sizes.items() if name != GM]
    public_bytes, gm_bytes = size_of(public), size_of(gm)
    reports_bytes = sum(sizes.values())
    return {
        "size": size, "players": game.players, "orders": len(result.results),
        "events": len(result.events), "repeat": repeat, "one_at_a_time": one_at_a_time,
        "public_cpu_s": public_cpu, "public_s": public_wall, "public_mb": public_bytes / MB,
        "gm_cpu_s": gm_cpu, "gm_s": gm_wall, "gm_mb": gm_bytes / MB,
        "player_reports_cpu_s": reports_cpu, "player_reports_s": reports_wall,
        "player_reports_mb": reports_bytes / MB, "reports": len(sizes),
        "largest_own_mb": max(own, default=0) / MB,
        "mean_own_mb": (sum(own) / len(own) if own else 0) / MB,
        # a turn's reports: the public one, and player_reports (every player's and the GM's)
        "all_cpu_s": public_cpu + reports_cpu, "all_mb": (public_bytes + reports_bytes) / MB,
        "peak_mib": claims_scale.peak_mib(),
    }


def table(rows: list[dict[str, Any]]) -> str:
    head = (f"{'size':>6} {'players':>7} {'orders':>7} {'public s':>9} {'public MB':>9} "
            f"{'GM s':>7} {'GM MB':>7} {'reports s':>10} {'reports MB':>10} "
            f"{'largest own MB':>14} {'all s':>8} {'all MB':>8} {'peak MiB':>8}")
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(
            f"{claims_scale.format_size(r['size']):>6} {r['players']:>7} {r['orders']:>7} "
            f"{r['public_cpu_s']:>9.3f} {r['public_mb']:>9.2f} {r['gm_cpu_s']:>7.3f} "
            f"{r['gm_mb']:>7.2f} {r['player_reports_cpu_s']:>10.3f} "
            f"{r['player_reports_mb']:>10.2f} {r['largest_own_mb']:>14.4f} "
            f"{r['all_cpu_s']:>8.3f} {r['all_mb']:>8.2f} {r['peak_mib']:>8.0f}")
    return "\n".join(lines)


def run_worker(size: int, args: argparse.Namespace) -> dict[str, Any]:
    repeat = args.repeat or (3 if size <= REPEAT_UP_TO else 1)
    worker = ["--worker", "--size", str(size), "--seed", str(args.seed), "--repeat", str(repeat)]
    if args.one_at_a_time:
        worker.append("--one-at-a-time")
    return claims_scale.run_worker(worker, script=__file__)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=claims_scale.parse_sizes, default=None,
                        help="territory counts, comma-separated (default 10^3,10^4,10^5)")
    parser.add_argument("--quick", action="store_true",
                        help=f"sizes {QUICK_SIZES}, each report made once (for tests)")
    parser.add_argument("--repeat", type=int, default=None,
                        help=f"runs of each report, the best kept (default 3 up to "
                             f"{REPEAT_UP_TO} territories, 1 above)")
    parser.add_argument("--one-at-a-time", action="store_true",
                        help="each player's report made and dropped alone with player_report "
                             "instead of player_reports (the code before it grouped the turn "
                             "once, without holding every report in memory)")
    parser.add_argument("--seed", type=int, default=claims_scale.SEED)
    parser.add_argument("--out", type=Path, default=None, help="also write the results as JSON")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--size", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.sizes is None:
        args.sizes = list(QUICK_SIZES if args.quick else DEFAULT_SIZES)
    if args.quick and args.repeat is None:
        args.repeat = 1
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.worker:
        print(json.dumps(worker(args.size, args.seed, args.repeat or 1, args.one_at_a_time)))
        return 0
    print(f"sheetmaster turn reports benchmark: Python {platform.python_version()}, "
          f"{platform.machine()}, {os.cpu_count()} CPUs, seed {args.seed}"
          f"{', each report alone' if args.one_at_a_time else ''}", flush=True)
    rows = []
    for size in args.sizes:
        print(f"  {size} territories in a fresh process ...", flush=True)
        rows.append(run_worker(size, args))
    print()
    print("CPU seconds (best of the runs) and MB (UTF-8) of a turn's reports: the public one,")
    print("the GM's, player_reports (every player's own and the GM's: 'reports'), the largest")
    print("player's own, and all of them (public + reports):")
    print(table(rows))
    if args.out:
        claims_scale.write_results(args.out, args.seed, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What the scale benchmarks of decades and 1800 share (issue 26.1): the issue's bound, the
peak memory, the sizes' syntax, a turn's statuses, and :func:`main`, which resolves each size
in a fresh process ``--runs`` times and prints the medians as a growth table. A benchmark
gives its ``worker(size, seed)`` (a row with at least ``provinces`` and ``resolve_s``) and
``profile(size, seed, top)``. ``growth.py`` uses the same pieces for its table of all five.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

try:
    import resource
except ImportError:  # Windows: no peak memory figure
    resource = None  # type: ignore[assignment]

#: the issue's bound: a game ten times larger costs at most this many times the time
BOUND = 12.0


def peak_mib() -> float:
    if resource is None:
        return 0.0
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def parse_sizes(text: str) -> list[int]:
    return [int(float(part)) for part in text.split(",") if part.strip()]


def statuses(result: Any) -> dict[str, Any]:
    """The turn's order results counted, and the reasons orders were refused (the five
    most common), to show the generated game is a valid one."""
    from sheetmaster.kit.model import Status

    counted = Counter(r.status for r in result.results)
    refused = Counter(r.reason for r in result.results
                      if r.status in (Status.REJECTED, Status.BLOCKED))
    return {"applied": counted[Status.APPLIED], "blocked": counted[Status.BLOCKED],
            "rejected": counted[Status.REJECTED], "refused": dict(refused.most_common(5))}


def _median(runs: list[dict[str, Any]]) -> dict[str, Any]:
    row = dict(runs[0])
    for key in ("resolve_s", "generate_s", "peak_mib"):
        row[key] = statistics.median(r[key] for r in runs)
    row["runs"] = len(runs)
    row["resolve_runs"] = [r["resolve_s"] for r in runs]
    return row


def table(rows: list[dict[str, Any]]) -> str:
    lines = [f"{'provinces':>9} {'nations':>7} {'orders':>7} {'applied':>7} {'refused':>7} "
             f"{'resolve s':>9} {'x size':>6} {'x time':>7} {'peak MiB':>8}"]
    for before, row in zip([None, *rows], rows):
        grew = (f"{row['provinces'] / before['provinces']:>6.1f} "
                f"{row['resolve_s'] / before['resolve_s']:>6.1f}x") if before else f"{'':>14}"
        lines.append(f"{row['provinces']:>9} {row['nations']:>7} {row['orders']:>7} "
                     f"{row['applied']:>7} {row['blocked'] + row['rejected']:>7} "
                     f"{row['resolve_s']:>9.3f} {grew} {row['peak_mib']:>8.0f}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None, *, script: str, description: str, sizes: list[int],
         seed: int, worker: Callable[[int, int], dict[str, Any]],
         profile: Callable[[int, int, int], None]) -> int:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--sizes", type=parse_sizes, default=sizes,
                        help="provinces, comma-separated (e.g. 2e3,2e4,2e5)")
    parser.add_argument("--runs", type=int, default=1,
                        help="fresh processes a size; the median is reported")
    parser.add_argument("--seed", type=int, default=seed)
    parser.add_argument("--out", type=Path, default=None, help="also write the rows as JSON")
    parser.add_argument("--profile", type=int, metavar="SIZE", default=None,
                        help="cProfile one resolve at SIZE provinces, top entries")
    parser.add_argument("--top", type=int, default=25)
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.profile:
        profile(args.profile, args.seed, args.top)
        return 0
    if args.worker:
        print(json.dumps(worker(args.worker, args.seed)))
        return 0
    rows = []
    for size in args.sizes:
        runs = []
        for _ in range(args.runs):
            done = subprocess.run([sys.executable, script, "--worker", str(size), "--seed",
                                   str(args.seed)], capture_output=True, text=True, check=True)
            runs.append(json.loads(done.stdout))
        rows.append(_median(runs))
        print(table(rows).splitlines()[-1] if len(rows) > 1 else table(rows), flush=True)
    if args.out:
        args.out.write_text(json.dumps({"seed": args.seed, "rows": rows}, indent=2),
                            encoding="utf-8")
    return 0

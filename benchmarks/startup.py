"""How fast the ``sheetmaster`` command starts: --version, --help, completion, and ``check``
on each example game (issue 26.3, issue 28.12).

    python benchmarks/startup.py                          # this checkout, 9 runs of each
    python benchmarks/startup.py --runs 21 --out startup.json
    python benchmarks/startup.py --baseline /tmp/before   # and another checkout, run in turn
    python benchmarks/startup.py --quick                  # 3 runs, two example games

Every run is a fresh interpreter, ``python -m sheetmaster ARGS`` with the checkout first on
``PYTHONPATH``, timed from outside (wall seconds, and the child's user + system CPU seconds
from ``getrusage``); the table gives the median, min and max of each. The completion runs are
what the shell does on TAB: the command with ``_ARGCOMPLETE=1`` and ``COMP_LINE`` (here
``sheetmaster new ``, which completes ruleset names); ``completion bash`` is the line a
``.bashrc`` evaluates at every shell start. Each example game is written with ``sheetmaster
new RULESET FILE --example`` by the checkout under test, then checked (``check`` writes its
results into the workbook, the same ones each run). The runs use Python's bytecode cache,
as an installed sheetmaster does (``PYTHONDONTWRITEBYTECODE`` is cleared for them, and the
uncounted warm-up run of each command writes it).

``--baseline DIR`` measures another checkout of sheetmaster too (for instance ``git worktree
add /tmp/before 0051b9e``), the two commands in turn (A B A B ...), and adds the ratio of
their medians. ``--importtime`` also prints, for each command, what ``python -X importtime``
says the imports took (self times summed, the median of 3 more runs) and which heavy
packages were imported.

Python, its site-packages and the machine's load are the same for both checkouts; the
packages they import come from the interpreter running this script (``--python`` to choose).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
RULESETS = ("claims", "clans", "decades", "eighteen_hundred", "goldenage")
QUICK_RULESETS = ("claims", "goldenage")
#: what the import summary names when a command imported it
HEAVY = ("pandas", "numpy", "openpyxl", "python_calamine", "gspread", "requests", "rich",
         "PIL", "yaml", "cryptography")
COMPLETE_LINE = "sheetmaster new "


@dataclass
class Command:
    label: str
    args: list[str]
    env: dict[str, str] = field(default_factory=dict)


@dataclass
class Timings:
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)

    def row(self) -> list[str]:
        return [spread(self.wall), spread(self.cpu)]


def spread(values: list[float]) -> str:
    """'0.123 (0.110-0.140)': median (min-max), in seconds."""
    return f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})"


def commands(games: dict[str, Path], scratch: Path) -> list[Command]:
    completing = {"_ARGCOMPLETE": "1", "_ARGCOMPLETE_SHELL": "bash",
                  "COMP_LINE": COMPLETE_LINE, "COMP_POINT": str(len(COMPLETE_LINE)),
                  "_ARGCOMPLETE_STDOUT_FILENAME": str(scratch / "completions")}
    found = [Command("--version", ["--version"]), Command("--help", ["--help"]),
             Command("completion bash", ["completion", "bash"]),
             Command(f"TAB after '{COMPLETE_LINE.strip()}'", [], completing)]
    found += [Command(f"check ({name} example)", ["check", str(path), "-q"])
              for name, path in games.items()]
    return found


def environment(checkout: Path, extra: dict[str, str]) -> dict[str, str]:
    env = {**os.environ, **extra}
    # the bytecode cache, as an installed sheetmaster has it (the warm-up run writes it)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = os.pathsep.join([str(checkout), *filter(None, [
        os.environ.get("PYTHONPATH")])])
    return env


def run_once(python: str, checkout: Path, command: Command,
             importtime: bool = False) -> tuple[float, float, str]:
    """(wall s, CPU s, stderr) of one fresh run."""
    argv = [python, *(["-X", "importtime"] if importtime else []), "-m", "sheetmaster",
            *command.args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # from the checkout's parent folder: python -m puts the working folder first on sys.path,
    # and it must not hold another sheetmaster
    done = subprocess.run(argv, env=environment(checkout, command.env), capture_output=True,
                          text=True, check=False, cwd=checkout.parent)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):  # check exits 1 when an example's order is rejected
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stderr


def example_games(python: str, checkout: Path, folder: Path,
                  rulesets: tuple[str, ...]) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    games = {}
    for name in rulesets:
        path = folder / f"{name}.xlsx"
        run_once(python, checkout, Command("new", ["new", name, str(path), "--example",
                                                   "--force", "-q"]))
        games[name] = path
    return games


def import_summary(stderr: str) -> tuple[float, list[str]]:
    """(summed self import seconds, heavy packages imported) of a -X importtime log."""
    total, heavy = 0, set()
    for m in re.finditer(r"^import time:\s+(\d+) \|\s+\d+ \|\s*(\S+)", stderr, re.M):
        total += int(m.group(1))
        heavy.add(m.group(2).split(".")[0])
    return total / 1e6, sorted(heavy & set(HEAVY))


def imports(python: str, checkout: Path, command: Command, runs: int = 3
            ) -> tuple[float, list[str]]:
    """:func:`import_summary` of ``runs`` runs under ``-X importtime``: the median seconds."""
    found = [import_summary(run_once(python, checkout, command, importtime=True)[2])
             for _ in range(runs)]
    return statistics.median(seconds for seconds, _ in found), found[0][1]


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="fresh runs of each command")
    parser.add_argument("--quick", action="store_true", help="3 runs, two example games")
    parser.add_argument("--baseline", type=Path, metavar="CHECKOUT",
                        help="another checkout of sheetmaster to measure in turn with this one")
    parser.add_argument("--checkout", type=Path, default=HERE.parent,
                        help="the checkout to measure (default: this one)")
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter (with sheetmaster's dependencies) to run")
    parser.add_argument("--importtime", action="store_true",
                        help="also summarise python -X importtime for each command")
    parser.add_argument("--out", type=Path, help="write every run's figures as JSON")
    args = parser.parse_args(argv)
    runs = 3 if args.quick else args.runs
    rulesets = QUICK_RULESETS if args.quick else RULESETS
    sides = {"this": args.checkout.resolve()}
    if args.baseline:
        sides["baseline"] = args.baseline.resolve()
    results: dict[str, dict[str, Timings]] = {}
    summaries: dict[str, dict[str, tuple[float, list[str]]]] = {}
    with tempfile.TemporaryDirectory(prefix="sheetmaster-startup-") as temp:
        plans = {side: commands(example_games(args.python, checkout, Path(temp) / side,
                                              rulesets), Path(temp))
                 for side, checkout in sides.items()}
        for index, command in enumerate(plans["this"]):
            results[command.label] = {side: Timings() for side in sides}
            for side, checkout in sides.items():  # a warm-up run each, not counted
                run_once(args.python, checkout, plans[side][index])
            for _ in range(runs):
                for side, checkout in sides.items():
                    wall, cpu, _ = run_once(args.python, checkout, plans[side][index])
                    results[command.label][side].wall.append(wall)
                    results[command.label][side].cpu.append(cpu)
            if args.importtime:
                summaries[command.label] = {
                    side: imports(args.python, checkout, plans[side][index])
                    for side, checkout in sides.items()}
    header = ["command", "wall s", "CPU s"]
    if args.baseline:
        header = ["command", "wall s", "CPU s", "baseline wall s", "baseline CPU s",
                  "wall ratio"]
    rows = []
    for label, by_side in results.items():
        row = [label, *by_side["this"].row()]
        if args.baseline:
            base = by_side["baseline"]
            ratio = statistics.median(by_side["this"].wall) / statistics.median(base.wall)
            row += [*base.row(), f"{ratio:.2f}"]
        rows.append(row)
    print(f"median (min-max) of {runs} fresh runs each, Python "
          f"{sys.version.split()[0]}, {os.cpu_count()} cores\n")
    print(table(header, rows))
    if summaries:
        print("\nimports (python -X importtime, self times summed; heavy packages imported)\n")
        print(table(["command", *(f"{side} s" for side in sides),
                     *(f"{side} imported" for side in sides)],
                    [[label, *(f"{s[side][0]:.3f}" for side in sides),
                      *(", ".join(s[side][1]) or "-" for side in sides)]
                     for label, s in summaries.items()]))
    if args.out:
        args.out.write_text(json.dumps({
            "runs": runs, "checkouts": {side: str(path) for side, path in sides.items()},
            "timings": {label: {side: {"wall": t.wall, "cpu": t.cpu}
                                for side, t in by_side.items()}
                        for label, by_side in results.items()},
            "imports": {label: {side: {"seconds": s[0], "heavy": s[1]}
                                for side, s in by_side.items()}
                        for label, by_side in summaries.items()},
        }, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

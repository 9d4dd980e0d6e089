"""sheetmaster's reliability, measured: fuzzed rows, faults survived, kills survived,
concurrent runs, and data lost (which must be 0).

Usage::

    python benchmarks/reliability.py            # the full run (a few minutes on 2 cores)
    python benchmarks/reliability.py --quick    # a small run (the test suite's smoke test)
    python benchmarks/reliability.py --kills 200 --out reliability.json

What runs (the checks live in ``testkit.reliability``, shared with
tests/test_faults.py, tests/test_crash.py and tests/test_concurrency.py):

* fuzzing: ``testkit.fuzzing.run_fuzz(rows_per_ruleset)``, if that module exists.
* faults: resolves of the claims example game on a fake Google Sheets API (real gspread
  client, real HTTP on 127.0.0.1) that answers 429, 500, 503, times out or drops the
  connection on ``--fault-rate`` of the requests: first with nothing applied, then with the
  request applied and only its answer lost. Each must end with exactly the sheet of a
  fault-free resolve (every tab, the hidden undo tab too) and no lock left. Then faults that
  never clear (from the first request, and from the write): a clear error, the sheet as it was.
* kills: ``sheetmaster resolve`` in a child process, SIGKILLed at a random moment of its run,
  on a .xlsx workbook and on a Google Sheet (the fake, in this process); after each, the game
  must be exactly the old turn or exactly the new one, and the next run must end with the
  new turn.
* concurrent runs: two runs of one game started together; exactly one may advance the turn
  and the game must end as one clean resolve left it.

"data lost" counts the runs whose game ended other than the clean reference (a fault run,
a kill, a round of concurrent runs). The script exits 1 if it is not 0 (or fuzzing failed).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # testkit/, from a checkout

from sheetmaster.testing.fakesheets import FakeSheetsServer  # noqa: E402
from testkit import reliability as rel  # noqa: E402

FULL = {"fuzz_rows": 10_000, "fault_runs": 40, "kills": 50, "rounds": 10}
QUICK = {"fuzz_rows": 100, "fault_runs": 6, "kills": 4, "rounds": 2}
PROBLEM_KEYS = ("uncaught_exceptions", "rows_without_result", "invariant_violations")


def fuzz(rows: int) -> dict[str, Any]:
    try:
        from testkit.fuzzing import run_fuzz
    except ImportError:
        print("fuzzing: not available")
        return {"available": False}
    started = time.perf_counter()
    try:
        figures = run_fuzz(rows)
    except Exception as exc:  # report it, and fail the run
        print(f"fuzzing: FAILED: {type(exc).__name__}: {exc}")
        return {"available": True, "failed": f"{type(exc).__name__}: {exc}"}
    seconds = time.perf_counter() - started
    if isinstance(figures, dict):
        fuzzed = figures.get("order_rows", figures.get("rows", "?"))
        problems = {k: figures[k] for k in PROBLEM_KEYS if k in figures}
        extra = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in problems.items())
        print(f"fuzzing: {fuzzed} order rows fuzzed ({rows} asked per ruleset)"
              f"{'; ' + extra if extra else ''} ({seconds:.0f} s)")
        return {"available": True, "rows": fuzzed, "figures": _jsonable(figures)}
    print(f"fuzzing: {figures} ({seconds:.0f} s)")
    return {"available": True, "figures": _jsonable(figures)}


def _jsonable(value: Any) -> Any:
    """``value`` with every key a string and every leaf JSON can hold (else its text)."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def faults(server: FakeSheetsServer, state: Any, runs: int, rate: float) -> dict[str, Any]:
    reference = rel.in_process_reference(server, state)
    out: dict[str, Any] = {}
    for label, after in (("before apply", False), ("after apply", True)):
        tally = rel.fault_runs(server, state, reference, runs=runs, rate=rate,
                               after_apply=after, seed=1000 if after else 1)
        kinds = ", ".join(f"{k}: {n}" for k, n in sorted(tally.injected.items()))
        print(f"  {label:12}  {tally.runs} runs, {tally.requests} requests, "
              f"{tally.faults} faults injected ({tally.share:.0%} of requests; {kinds}), "
              f"{tally.survived} survived, {tally.lost} runs lost")
        _problems(tally.problems)
        out[label] = {**asdict(tally), "faults": tally.faults, "share": tally.share}
    never = []
    for from_step, label in (("", "from the first request"), ("writing", "from the write")):
        message, unchanged = rel.never_clearing_run(server, state, from_step=from_step,
                                                    deadline=1.0)
        clear = "kept failing" in message
        never.append({"from": label, "error": message, "unchanged": unchanged})
        print(f"  never clears {label}: {'a clear error' if clear else 'NO ERROR'}, "
              f"sheet {'unchanged' if unchanged else 'CHANGED'}")
    out["never clears"] = never
    return out


def _problems(problems: list[str]) -> None:
    for problem in problems[:10]:
        print(f"      ! {problem}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a small run (for tests)")
    parser.add_argument("--fuzz-rows", type=int, help="order rows fuzzed per ruleset")
    parser.add_argument("--fault-runs", type=int, help="faulty resolves, per fault mode")
    parser.add_argument("--fault-rate", type=float, default=0.4,
                        help="share of requests faulted (default 0.4)")
    parser.add_argument("--kills", type=int, help="SIGKILLed resolves, per store")
    parser.add_argument("--rounds", type=int, help="rounds of two concurrent runs, per store")
    parser.add_argument("--seed", type=int, default=0, help="seed of the kill moments")
    parser.add_argument("--out", help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    size = dict(QUICK if args.quick else FULL)
    for key in size:
        if getattr(args, key) is not None:
            size[key] = getattr(args, key)

    started = time.perf_counter()
    print(f"sheetmaster reliability ({'quick' if args.quick else 'full'} run)")
    report: dict[str, Any] = {"settings": {**size, "fault_rate": args.fault_rate,
                                           "seed": args.seed}}
    report["fuzzing"] = fuzz(size["fuzz_rows"])
    state = rel.game_state()
    lost: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp, FakeSheetsServer() as server:
        root = Path(tmp)
        print("faults (Google Sheets, the fake API through the real gspread client):")
        report["faults"] = faults(server, state, size["fault_runs"], args.fault_rate)
        lost["faults"] = sum(report["faults"][k]["lost"] for k in ("before apply",
                                                                    "after apply"))
        lost["faults that never clear"] = sum(
            not (n["unchanged"] and "kept failing" in n["error"])
            for n in report["faults"]["never clears"])

        print("kills (SIGKILL at a random moment of `sheetmaster resolve`):")
        xlsx_ref = rel.xlsx_reference(root / "xlsx", state)
        sheets_ref = rel.sheets_reference(server, state, root / "sheets")
        crashes = [rel.crash_xlsx(root / "xlsx", xlsx_ref, size["kills"], seed=args.seed),
                   rel.crash_sheets(server, state, sheets_ref, size["kills"], root / "sheets",
                                    seed=args.seed)]
        for tally in crashes:
            temp = f", {tally.temp_files_left} temp files" if tally.store == "xlsx" else ""
            print(f"  {tally.store:6}  {tally.kills} kills ({tally.mid_run} mid-run): "
                  f"{tally.ended_old} left the old turn, {tally.ended_new} the new one, "
                  f"{tally.kills - tally.ended_old - tally.ended_new} a mix; "
                  f"{tally.locks_left} left a lock{temp}; {tally.survived} survived "
                  f"(the next run ended with the new turn), {tally.lost} lost")
            _problems(tally.problems)
            lost[f"kills ({tally.store})"] = tally.lost
        report["kills"] = {t.store: asdict(t) for t in crashes}

        print("concurrent runs (two runs of one game started together):")
        races = [rel.concurrent_xlsx(root / "xlsx", xlsx_ref, size["rounds"]),
                 rel.concurrent_sheets(server, state, sheets_ref, size["rounds"],
                                       root / "sheets")]
        for tally in races:
            print(f"  {tally.store:6}  {tally.rounds} rounds, {tally.runs} runs: "
                  f"{tally.advanced} advanced the turn, {tally.stopped} stopped without "
                  f"changes; {tally.lost} rounds lost")
            _problems(tally.problems)
            lost[f"concurrent runs ({tally.store})"] = tally.lost
        report["concurrency"] = {t.store: asdict(t) for t in races}

    total = sum(lost.values())
    report["data_lost"] = total
    report["data_lost_by_check"] = lost
    report["seconds"] = round(time.perf_counter() - started, 1)
    print(f"data lost: {total}" + ("" if not total else
                                   " (" + ", ".join(f"{k}: {v}" for k, v in lost.items()
                                                    if v) + ")"))
    print(f"({report['seconds']:.0f} s)")
    if args.out:
        Path(args.out).write_text(json.dumps(_jsonable(report), indent=2) + "\n",
                                  encoding="utf-8")
    failed = bool(report["fuzzing"].get("failed"))
    return 1 if total or failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Concurrent runs: two runs of one game started at the same moment; exactly one may
advance the turn, and the game must end as one clean resolve left it.
"""

from __future__ import annotations

import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sheetmaster.app.runs import Mode, RunOutcome, run_turn
from sheetmaster.kit.model import GameState
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.gsheets import SheetsStore
from sheetmaster.testing.fakesheets import FakeSheetsServer
from testkit.reliability.child import (
    DONE,
    SHEETS_LATENCY,
    CliChild,
    _folder,
    _prewarmed,
    sheets_command,
    sheets_env,
    xlsx_command,
)
from testkit.reliability.game import (
    SEED,
    difference,
    sheet_locks,
    sheet_snapshot,
    sheets_store,
    upload,
    xlsx_snapshot,
)
from testkit.reliability.references import Reference

# -- concurrent runs -----------------------------------------------------------------------

@dataclass
class ConcurrencyTally:
    """Rounds of two runs of one game started at the same moment."""

    store: str
    rounds: int = 0
    runs: int = 0
    advanced: int = 0  # runs that resolved the turn (one per round, or the turn moved twice)
    stopped: int = 0  # runs that stopped without changes (lock held, or turn not due)
    lost: int = 0  # rounds that did not end exactly as one clean resolve
    problems: list[str] = field(default_factory=list)


def _race(children: list[CliChild], tally: ConcurrencyTally) -> list[str]:
    """Start every child at once; returns the problems with how they ended."""
    for child in children:
        child.ready()
    for child in children:
        child.go()
    problems = []
    advanced = 0
    for child in children:
        code, out, err = child.wait()
        tally.runs += 1
        if code == 0 and DONE in out:
            advanced += 1
        elif ("another sheetmaster run" in err or "orders may still arrive" in err
              or "nothing to do" in out):
            tally.stopped += 1
        else:
            problems.append(f"a run ended oddly ({code}): {(out + err).strip()[-300:]}")
    tally.advanced += advanced
    if advanced != 1:
        problems.append(f"{advanced} runs advanced the turn")
    return problems


def concurrent_xlsx(root: Path, reference: Reference, rounds: int) -> ConcurrencyTally:
    """``rounds`` times: two ``sheetmaster resolve game.xlsx`` processes at once."""
    tally = ConcurrencyTally("xlsx")
    assert reference.pristine is not None

    def spawn(i: int) -> tuple[CliChild, CliChild, Path]:
        work = root / f"race-{i:03d}"
        work.mkdir(parents=True, exist_ok=True)
        game = work / "game.xlsx"
        shutil.copy2(reference.pristine, game)
        return CliChild(xlsx_command(game)), CliChild(xlsx_command(game)), game

    for i, (one, two, game) in _prewarmed(rounds, spawn, batch=2):
        try:
            problems = _race([one, two], tally)
        finally:
            one.close()
            two.close()
        final = xlsx_snapshot(game)
        if final != reference.new:
            problems.append(f"not one clean resolve: {difference(final, reference.new)}")
        tally.rounds += 1
        if problems:
            tally.lost += 1
            tally.problems.append(f"round {i}: " + "; ".join(problems))
    return tally


def concurrent_sheets(server: FakeSheetsServer, state: GameState, reference: Reference,
                      rounds: int, root: Path) -> ConcurrencyTally:
    """``rounds`` times, two runs at once on one spreadsheet, with the real 20-minute lock:
    two ``sheetmaster resolve --sheet`` processes (even rounds), or two scheduled runs
    (``run_turn(..., Mode.SCHEDULED)``, what ``sheetmaster nightly`` does) in threads of this
    process (odd rounds)."""
    tally = ConcurrencyTally("sheets")
    env = sheets_env(server)
    latency, server.latency = server.latency, SHEETS_LATENCY

    def spawn(i: int) -> tuple[Any, Any, str]:
        sid = upload(server, state)
        if i % 2:
            return None, None, sid
        return (CliChild(sheets_command(sid), env=env, cwd=_folder(root)),
                CliChild(sheets_command(sid), env=env, cwd=_folder(root)), sid)

    try:
        for i, (one, two, sid) in _prewarmed(rounds, spawn, batch=2):
            if one is None:
                problems = _race_threads(server, sid, tally)
            else:
                try:
                    problems = _race([one, two], tally)
                finally:
                    one.close()
                    two.close()
            server.wait_idle()
            final = sheet_snapshot(server, sid)
            if final != reference.new:
                problems.append(f"not one clean resolve: {difference(final, reference.new)}")
            if sheet_locks(server, sid):
                problems.append("a lock is left")
            tally.rounds += 1
            if problems:
                tally.lost += 1
                tally.problems.append(f"round {i}: " + "; ".join(problems))
    finally:
        server.latency = latency
    return tally


def _race_threads(server: FakeSheetsServer, sid: str, tally: ConcurrencyTally) -> list[str]:
    """Two scheduled runs in threads, released at the same moment."""
    stores = [sheets_store(server, sid) for _ in range(2)]
    barrier = threading.Barrier(len(stores))
    ends: list[Any] = []

    def run(store: SheetsStore) -> None:
        barrier.wait()
        try:
            ends.append(run_turn(store, Mode.SCHEDULED, seed=SEED))
        except Exception as exc:
            ends.append(exc)

    threads = [threading.Thread(target=run, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    problems = []
    advanced = 0
    for end in ends:
        tally.runs += 1
        if isinstance(end, RunOutcome) and end.written:
            advanced += 1
        elif isinstance(end, RunOutcome) or (isinstance(end, StoreError) and
                                             "another sheetmaster run" in str(end)):
            tally.stopped += 1
        else:
            problems.append(f"a run ended oddly: {end!r}")
    tally.advanced += advanced
    if advanced != 1:
        problems.append(f"{advanced} runs advanced the turn")
    return problems

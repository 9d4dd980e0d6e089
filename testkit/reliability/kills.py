"""Kills: ``sheetmaster resolve`` SIGKILLed at random moments; the game must be old or
new, never a mix, and the next run (:func:`next_run`) must end with the new turn.
"""

from __future__ import annotations

import random
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sheetmaster.app.runs import Mode, RunOutcome, run_turn
from sheetmaster.kit.model import GameState
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.gsheets_client import LOCK_TTL_ENV
from sheetmaster.stores.xlsx import XlsxStore, backup_path
from sheetmaster.stores.xlsx_files import is_locked
from sheetmaster.testing.fakesheets import FakeSheetsServer
from testkit.reliability.child import (
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
    Snapshot,
    classify,
    difference,
    digest,
    sheet_locks,
    sheet_snapshot,
    sheets_store,
    upload,
    xlsx_snapshot,
)
from testkit.reliability.references import Reference, keep_secret

#: a child's lock holds this long (SHEETMASTER_LOCK_TTL) in the kill runs, so the run after
#: a kill waits a second for it, not the real 20 minutes.
CHILD_LOCK_TTL = 1


#: kills land uniformly within this many times the clean run's duration (a little past its
#: end: a run's duration varies).
KILL_SPAN = 1.5
#: a lock that is still live when the next run comes is waited for at most this long.
LOCK_WAIT = 20.0


def next_run(start: Callable[[], RunOutcome], wait: float = LOCK_WAIT) -> RunOutcome:
    """``start()`` again while it stops on a live lock, for at most ``wait`` seconds: the
    lock of a killed run must clear by itself (dead pid, or its expiry), never block."""
    end = time.monotonic() + wait
    while True:
        try:
            return start()
        except StoreError as exc:
            if "another sheetmaster run" not in str(exc) or time.monotonic() > end:
                raise
            time.sleep(0.1)


# -- kills ---------------------------------------------------------------------------------

@dataclass
class CrashTally:
    """Runs SIGKILLed at random moments, and what the game looked like after each."""

    store: str
    kills: int = 0
    mid_run: int = 0  # kills that cut a run short (the others came after it had finished)
    ended_old: int = 0  # the game was exactly as before the turn
    ended_new: int = 0  # the game was exactly the resolved turn
    locks_left: int = 0  # kills that left a lock for the next run to take over
    temp_files_left: int = 0  # (.xlsx) temp files a kill left beside the game
    survived: int = 0  # old or new, and the next run ended with the new turn
    lost: int = 0
    problems: list[str] = field(default_factory=list)


def crash_xlsx(root: Path, reference: Reference, kills: int, *, seed: int = 0) -> CrashTally:
    """``kills`` runs of ``sheetmaster resolve game.xlsx`` SIGKILLed at random moments."""
    rng = random.Random(seed)
    tally = CrashTally("xlsx")
    assert reference.pristine is not None

    def spawn(i: int) -> tuple[CliChild, Path]:
        work = root / f"kill-{i:03d}"
        work.mkdir(parents=True, exist_ok=True)
        game = work / "game.xlsx"
        shutil.copy2(reference.pristine, game)
        keep_secret(game, reference.secret)
        return CliChild(xlsx_command(game)), game

    for i, (child, game) in _prewarmed(kills, spawn):
        try:
            child.ready()
            child.go()
            time.sleep(rng.uniform(0, KILL_SPAN * reference.duration))
            cut = child.kill()
        finally:
            child.close()
        tally.kills += 1
        tally.mid_run += cut
        problems = []
        after: Snapshot | None = None
        try:
            after = xlsx_snapshot(game)
        except Exception as exc:  # a half-written workbook
            problems.append(f"unreadable after the kill: {exc}")
        state = classify(after, reference.old, reference.new)
        tally.ended_old += state == "old"
        tally.ended_new += state == "new"
        if state == "mixed":
            problems.append(f"neither the old nor the new turn: "
                            f"{difference(after, reference.old)}")
        problems += _backup_problems(game, reference)
        tally.locks_left += is_locked(game)
        tally.temp_files_left += len(list(game.parent.glob(f".{game.name}.*.tmp")))
        try:
            next_run(lambda game=game: run_turn(XlsxStore(game), Mode.SCHEDULED, seed=SEED,
                                                secret=reference.secret))
            final = xlsx_snapshot(game)
            if final != reference.new:
                problems.append(f"the next run did not end with the new turn: "
                                f"{difference(final, reference.new)}")
            elif digest(game) != reference.new_digest:
                problems.append("the next run's workbook has other bytes than the reference")
            if is_locked(game):
                problems.append("the next run left the game locked")
            problems += _backup_problems(game, reference)
        except Exception as exc:
            problems.append(f"the next run failed: {exc}")
        _settle(tally, i, state, cut, problems)
    return tally


def _backup_problems(game: Path, reference: Reference) -> list[str]:
    """The pre-turn backup, if there is one, must be the whole old game (undo restores it)."""
    kept = backup_path(game, 2)
    if not kept.exists():
        return []
    try:
        ok = xlsx_snapshot(kept) == reference.old
    except Exception as exc:
        return [f"the backup {kept.name} is not a readable workbook: {exc}"]
    return [] if ok else [f"the backup {kept.name} is not the old game"]


def _settle(tally: CrashTally, i: int, state: str, cut: bool, problems: list[str]) -> None:
    if problems:
        tally.lost += 1
        tally.problems.append(f"kill {i} ({'mid-run' if cut else 'after the run'}, game "
                              f"{state}): " + "; ".join(problems))
    else:
        tally.survived += 1


def crash_sheets(server: FakeSheetsServer, state: GameState, reference: Reference, kills: int,
                 root: Path, *, seed: int = 0) -> CrashTally:
    """``kills`` runs of ``sheetmaster resolve --sheet ID`` (the CLI, talking to the fake in
    this process) SIGKILLed at random moments. The children's locks hold CHILD_LOCK_TTL s
    (SHEETMASTER_LOCK_TTL); the run after a kill waits for a live one to expire."""
    rng = random.Random(seed)
    tally = CrashTally("sheets")
    env = sheets_env(server, **{LOCK_TTL_ENV: str(CHILD_LOCK_TTL)})
    latency, server.latency = server.latency, SHEETS_LATENCY
    pending: list[tuple[int, str, str, bool, list[str]]] = []

    def spawn(i: int) -> tuple[CliChild, str]:
        sid = upload(server, state)
        return CliChild(sheets_command(sid), env=env, cwd=_folder(root)), sid

    try:
        for i, (child, sid) in _prewarmed(kills, spawn):
            try:
                child.ready()
                child.go()
                time.sleep(rng.uniform(0, KILL_SPAN * reference.duration))
                cut = child.kill()
            finally:
                child.close()
            server.wait_idle()  # a request the child sent before it died is still applied
            tally.kills += 1
            tally.mid_run += cut
            after = sheet_snapshot(server, sid)
            state_ = classify(after, reference.old, reference.new)
            tally.ended_old += state_ == "old"
            tally.ended_new += state_ == "new"
            tally.locks_left += bool(sheet_locks(server, sid))
            problems = [] if state_ != "mixed" else [
                f"neither the old nor the new turn: {difference(after, reference.old)}"]
            pending.append((i, sid, state_, cut, problems))
        # the next run of each game: all at the end, so that the live locks the kills left
        # expire while the other kills run instead of being waited for one by one.
        server.latency = latency
        for i, sid, state_, cut, problems in pending:
            try:
                next_run(lambda sid=sid: run_turn(sheets_store(server, sid), Mode.SCHEDULED,
                                                  seed=SEED))
                server.wait_idle()
                final = sheet_snapshot(server, sid)
                if final != reference.new:
                    problems.append(f"the next run did not end with the new turn: "
                                    f"{difference(final, reference.new)}")
                if sheet_locks(server, sid):
                    problems.append("a lock is left after the next run")
            except Exception as exc:
                problems.append(f"the next run failed: {exc}")
            _settle(tally, i, state_, cut, problems)
    finally:
        server.latency = latency
    return tally

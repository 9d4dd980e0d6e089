"""Reliability under faults, crashes and concurrent runs: the checks behind
tests/test_faults.py, tests/test_crash.py, tests/test_concurrency.py and
benchmarks/reliability.py, which only choose how many of each to run and what to assert.

Every check compares whole games with a clean reference: the same example game resolved once
with the same dice seed and nothing going wrong. A game is "old" (as before the turn), "new"
(exactly the reference's resolved turn) or anything else, which is data lost.

* faults: a resolve through the real gspread client against a :class:`FakeSheetsServer` that
  answers 429, 500, 503, times out or drops the connection on a share of requests, before or
  after applying them; the run must end with the reference sheet, every tab compared
  (sheetmaster's hidden undo tab too).
* kills: ``sheetmaster resolve`` in a child process, SIGKILLed at a random moment of its run;
  the game must be old or new, never a mix, and the next run must end with the new turn.
* concurrency: two ``sheetmaster`` runs of one game told to start at the same moment; exactly
  one may advance the turn, and the game must end as one clean resolve left it.

Child processes run the CLI's ``main`` (see :data:`CHILD_GATE`): they import sheetmaster
first, say ``ready``, and start the command when told ``go``, so that a kill's random delay
is spent in the run itself and not in Python's start-up.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from sheetmaster.model import GameState
from sheetmaster.rules.claims import RULESET
from sheetmaster.runs import Mode, RunOutcome, run_turn
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.gsheets import LOCK_KEY, RetryPolicy, SheetsStore
from sheetmaster.stores.gsheets_client import ENDPOINT_ENV, LOCK_TTL_ENV, RETRY_DEADLINE_ENV
from sheetmaster.stores.xlsx import XlsxStore, backup_path
from sheetmaster.stores.xlsx_layout import write_new_workbook
from sheetmaster.testing.builder import build_state
from sheetmaster.testing.fakesheets import FakeSheetsServer

#: the dice seed every run uses (``--seed`` on the command line).
SEED = 11
FAULT_KINDS: tuple[Any, ...] = (429, 500, 503, "timeout", "drop")
#: a child's lock holds this long (SHEETMASTER_LOCK_TTL) in the kill runs, so the run after
#: a kill waits a second for it, not the real 20 minutes.
CHILD_LOCK_TTL = 1
#: the fake's per-request latency in the kill and concurrency runs on Sheets, so that kills
#: land between requests and two runs overlap.
SHEETS_LATENCY = 0.05
#: kills land uniformly within this many times the clean run's duration (a little past its
#: end: a run's duration varies).
KILL_SPAN = 1.5
#: a lock that is still live when the next run comes is waited for at most this long.
LOCK_WAIT = 20.0

#: a game's content: every tab's values, as rows.
Snapshot = dict[str, list[list[Any]]]

CHILD_GATE = """\
import sys
import gspread
import sheetmaster.cli
import sheetmaster.stores.gsheets
print("ready", flush=True)
if sys.stdin.readline().strip() == "go":
    sys.exit(sheetmaster.cli.main(sys.argv[1:]))
"""


# -- the game ------------------------------------------------------------------------------

def game_state(now: datetime | None = None) -> GameState:
    """The claims example game on turn 2, its deadline an hour ago (so a plain ``resolve``
    and a scheduled run both resolve it) and 24 hours a turn (so once resolved, the next turn
    is not due and a second or late run changes nothing)."""
    now = now or datetime.now(timezone.utc)
    deadline = (now - timedelta(hours=1)).strftime("%Y-%m-%d %H:%M")
    tables, orders, settings = RULESET.example()
    settings = dict(settings, timezone="UTC", deadline=deadline,
                    **{"turn length (hours)": 24})
    return build_state(RULESET, tables, orders, turn=2, settings=settings)


def _trim(rows: list[list[Any]]) -> list[list[Any]]:
    """Rows without trailing empty cells and trailing empty rows (as values.get gives them)."""
    out = []
    for row in rows:
        row = list(row)
        while row and row[-1] in ("", None):
            row.pop()
        out.append(row)
    while out and not out[-1]:
        out.pop()
    return out


def xlsx_snapshot(path: Path) -> Snapshot:
    """Every tab of a workbook, read with calamine; raises if it is not a readable workbook."""
    from python_calamine import CalamineWorkbook

    book = CalamineWorkbook.from_path(str(path))
    return {name: _trim(book.get_sheet_by_name(name).to_python(skip_empty_area=False))
            for name in book.sheet_names}


def digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def sheet_rows(state: GameState) -> dict[str, list[list[Any]]]:
    out = {}
    for tab, df in state.tables.items():
        rows = [["" if v is None else v for v in r] for r in df.itertuples(index=False)]
        out[tab] = [list(df.columns), *rows]
    return out


def upload(server: FakeSheetsServer, state: GameState) -> str:
    """A new spreadsheet on the fake holding the game; returns its id."""
    return server.create_spreadsheet(title="game", sheets=sheet_rows(state), time_zone="UTC")


def sheet_snapshot(server: FakeSheetsServer, sid: str) -> Snapshot:
    """Every tab of a spreadsheet (sheetmaster's hidden undo tab too), unformatted."""
    titles = [s["properties"]["title"] for s in server.metadata(sid)["sheets"]]
    return {title: _trim(server.values(sid, title)) for title in titles}


def sheet_locks(server: FakeSheetsServer, sid: str) -> list[dict[str, Any]]:
    return [m for m in server.developer_metadata(sid) if m.get("metadataKey") == LOCK_KEY]


def sheets_store(server: FakeSheetsServer, sid: str, *, timeout: float = 10.0,
                 retry: RetryPolicy | None = None, **kw: Any) -> SheetsStore:
    """A SheetsStore on the fake through the real gspread client, quick to retry."""
    client = server.client()
    client.set_timeout(timeout)
    retry = retry or RetryPolicy(deadline=30, first_wait=0.01, max_wait=0.1)
    return SheetsStore(sid, client, retry=retry, **kw)


def classify(snapshot: Snapshot | None, old: Snapshot, new: Snapshot) -> str:
    """'old', 'new', or 'mixed' (anything else; None for a game that cannot be read)."""
    if snapshot == old:
        return "old"
    if snapshot == new:
        return "new"
    return "mixed"


def difference(got: Snapshot | None, want: Snapshot) -> str:
    """The first tab and row where two games differ, for a readable failure."""
    if got is None:
        return "the game cannot be read"
    if set(got) != set(want):
        return f"tabs {sorted(got)} instead of {sorted(want)}"
    for tab in want:
        if got[tab] != want[tab]:
            for i, (a, b) in enumerate(zip(got[tab], want[tab]), start=1):
                if a != b:
                    return f"tab {tab!r} row {i}: {a!r} instead of {b!r}"
            return f"tab {tab!r}: {len(got[tab])} rows instead of {len(want[tab])}"
    return "no difference"


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


# -- references ----------------------------------------------------------------------------

#: what the CLI prints once a resolve is written and its report too.
DONE = "resolved turn 2"


@dataclass
class Reference:
    """A game before and after one clean resolve, and how long the CLI took from being told
    to go to saying it was done (kills land at random moments within that)."""

    old: Snapshot
    new: Snapshot
    duration: float = 0.0
    pristine: Path | None = None  # the .xlsx store's untouched game
    new_digest: str = ""


def xlsx_reference(root: Path, state: GameState) -> Reference:
    """The game as a workbook, and the clean ``sheetmaster resolve`` of it (a child process,
    as in the kill runs)."""
    root.mkdir(parents=True, exist_ok=True)
    pristine = root / "pristine.xlsx"
    write_new_workbook(RULESET, pristine, state)
    work = root / "reference"
    work.mkdir(exist_ok=True)
    game = work / "game.xlsx"
    shutil.copy2(pristine, game)
    child = CliChild(xlsx_command(game))
    child.ready()
    started = child.go()
    done, out = child.until(DONE)
    code, rest, err = child.wait()
    if code != 0 or DONE not in out:
        raise RuntimeError(f"the reference resolve failed ({code}): {out}{rest}{err}")
    return Reference(xlsx_snapshot(pristine), xlsx_snapshot(game), done - started,
                     pristine, digest(game))


def sheets_reference(server: FakeSheetsServer, state: GameState, root: Path) -> Reference:
    """The game in a spreadsheet on the fake, and the clean ``sheetmaster resolve --sheet``
    of it (a child process working in ``root``, as in the kill runs)."""
    sid = upload(server, state)
    old = sheet_snapshot(server, sid)
    latency, server.latency = server.latency, SHEETS_LATENCY
    try:
        child = CliChild(sheets_command(sid), env=sheets_env(server), cwd=_folder(root))
        child.ready()
        started = child.go()
        done, out = child.until(DONE)
        code, rest, err = child.wait()
        server.wait_idle()
    finally:
        server.latency = latency
    if code != 0 or DONE not in out:
        raise RuntimeError(f"the reference resolve failed ({code}): {out}{rest}{err}")
    return Reference(old, sheet_snapshot(server, sid), done - started)


def _folder(path: Path) -> Path:
    """A folder for child processes to work in (the Sheets CLI writes its report there)."""
    path.mkdir(parents=True, exist_ok=True)
    return path


def in_process_reference(server: FakeSheetsServer, state: GameState) -> Reference:
    """The clean resolve through run_turn (as the fault runs do), no child process."""
    sid = upload(server, state)
    old = sheet_snapshot(server, sid)
    run_turn(sheets_store(server, sid), Mode.RESOLVE, seed=SEED)
    return Reference(old, sheet_snapshot(server, sid))


# -- child processes -----------------------------------------------------------------------

def xlsx_command(game: Path) -> list[str]:
    return ["resolve", str(game), "--seed", str(SEED), "-q"]


def sheets_command(sid: str, command: str = "resolve") -> list[str]:
    seed = ["--seed", str(SEED)] if command == "resolve" else []
    return [command, "--sheet", sid, *seed, "-q"]


def sheets_env(server: FakeSheetsServer, **extra: str) -> dict[str, str]:
    return {ENDPOINT_ENV: server.url, **extra}


class CliChild:
    """``sheetmaster ARGS`` in a child process that has imported sheetmaster and waits for
    :meth:`go` (see :data:`CHILD_GATE`)."""

    def __init__(self, args: list[str], *, env: dict[str, str] | None = None,
                 cwd: Path | None = None) -> None:
        full_env = {k: v for k, v in os.environ.items()
                    if k not in (ENDPOINT_ENV, LOCK_TTL_ENV, RETRY_DEADLINE_ENV)}
        full_env.update(env or {}, PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen([sys.executable, "-c", CHILD_GATE, *args],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=full_env,
                                     cwd=cwd)
        self.ended = 0.0
        self.is_ready = False

    def ready(self) -> None:
        """Wait until the child has imported sheetmaster."""
        if self.is_ready:
            return
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if line.strip() != "ready":
            self.proc.kill()
            _, err = self.proc.communicate()
            raise RuntimeError(f"the child process did not start: {line}{err}")
        self.is_ready = True

    def go(self) -> float:
        assert self.proc.stdin is not None
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()
        return time.monotonic()

    def until(self, text: str) -> tuple[float, str]:
        """Read the output until a line holding ``text`` (or the end); returns when that
        line came and the output so far."""
        assert self.proc.stdout is not None
        seen = []
        for line in self.proc.stdout:
            seen.append(line)
            if text in line:
                break
        return time.monotonic(), "".join(seen)

    def kill(self) -> bool:
        """SIGKILL; True if the process was still running (the kill cut its run short)."""
        if self.proc.poll() is not None:
            return False
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        return self.proc.returncode == -signal.SIGKILL

    def wait(self, timeout: float = 120.0) -> tuple[int, str, str]:
        out, err = self.proc.communicate(timeout=timeout)
        self.ended = time.monotonic()
        return self.proc.returncode, out, err

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        with contextlib.suppress(Exception):
            self.proc.communicate(timeout=10)


def _prewarmed(count: int, spawn: Callable[[int], Any], batch: int = 4
               ) -> Iterator[tuple[int, Any]]:
    """(i, spawn(i)) for i in range(count), ``batch`` at a time: a batch's children start up
    (import sheetmaster) side by side, then are handed out one by one once all are ready, so
    that a run never shares the CPU with another child's start-up and takes as long as the
    reference run did."""
    for first in range(0, count, batch):
        items = {i: spawn(i) for i in range(first, min(count, first + batch))}
        try:
            for item in items.values():
                for child in _children(item):
                    child.ready()
            for i in list(items):
                yield i, items.pop(i)
        finally:
            for item in items.values():
                for child in _children(item):
                    child.close()


def _children(item: Any) -> list[CliChild]:
    """The child processes in what ``spawn`` returned (a child, or a tuple holding some)."""
    return [x for x in (item if isinstance(item, tuple) else (item,))
            if isinstance(x, CliChild)]


# -- faults --------------------------------------------------------------------------------

@dataclass
class FaultTally:
    """Resolves run against a faulty fake, and what became of them."""

    runs: int = 0
    requests: int = 0
    injected: Counter = field(default_factory=Counter)  # fault kind -> how many
    survived: int = 0  # faults injected in runs that ended exactly as the reference
    lost: int = 0  # runs that ended otherwise (or failed)
    problems: list[str] = field(default_factory=list)

    @property
    def faults(self) -> int:
        return sum(self.injected.values())

    @property
    def share(self) -> float:
        """Faults per request received."""
        return self.faults / self.requests if self.requests else 0.0


def fault_runs(server: FakeSheetsServer, state: GameState, reference: Reference, *,
               runs: int, rate: float = 0.4, after_apply: bool = False, seed: int = 1,
               kinds: tuple[Any, ...] = FAULT_KINDS, client_timeout: float = 0.2,
               timeout_delay: float = 0.5) -> FaultTally:
    """``runs`` resolves, each of a fresh copy of the game, with ``rate`` of the requests
    faulted (seeded ``seed``, ``seed + 1``...), the first run's first requests getting one
    fault of each kind in a row so that every kind is always met. A "timeout" fault answers
    after ``timeout_delay`` s, so the client gives up at ``client_timeout`` s and retries."""
    tally = FaultTally()
    for i in range(runs):
        sid = upload(server, state)
        store = sheets_store(server, sid, timeout=client_timeout)
        first_request, first_fault = len(server.requests), len(server.faults_injected)
        server.seed(seed + i)
        server.fault_kinds = kinds
        server.fault_after_apply = after_apply
        server.timeout_delay = timeout_delay
        server.fault_rate = rate
        if i == 0:
            for kind in kinds:
                server.fail_next(1, kind)
        error = ""
        try:
            run_turn(store, Mode.RESOLVE, seed=SEED)
        except StoreError as exc:
            error = str(exc)
        finally:
            server.clear_faults()
            server.fault_after_apply = False
        server.wait_idle()
        faults = [kind for _, kind in server.faults_injected[first_fault:]]
        tally.runs += 1
        tally.requests += len(server.requests) - first_request
        tally.injected.update(str(k) for k in faults)
        final = sheet_snapshot(server, sid)
        locks = sheet_locks(server, sid)
        if not error and final == reference.new and not locks:
            tally.survived += len(faults)
        else:
            tally.lost += 1
            why = error or (f"{len(locks)} lock(s) left" if final == reference.new
                            else difference(final, reference.new))
            tally.problems.append(f"run {i} (faults {faults}): {why}")
    return tally


def never_clearing_run(server: FakeSheetsServer, state: GameState, *, from_step: str = "",
                       deadline: float = 0.5, kinds: tuple[Any, ...] = FAULT_KINDS
                       ) -> tuple[str, bool]:
    """A resolve whose requests all fail from the step named ``from_step`` on ('' = from the
    first request; 'writing' = once the game is read and resolved). Returns the error's
    message ('' if it did not fail) and whether every tab is exactly as it was."""
    sid = upload(server, state)
    before = sheet_snapshot(server, sid)
    store = sheets_store(server, sid, timeout=0.2,
                         retry=RetryPolicy(deadline=deadline, first_wait=0.01, max_wait=0.05))
    server.fault_kinds = kinds
    server.timeout_delay = 0.3

    def step(what: str) -> contextlib.AbstractContextManager:
        if from_step and what.startswith(from_step):
            server.fault_rate = 1.0
        return contextlib.nullcontext()

    if not from_step:
        server.fault_rate = 1.0
    message = ""
    try:
        run_turn(store, Mode.RESOLVE, seed=SEED, progress=step)
    except StoreError as exc:
        message = str(exc)
    finally:
        server.clear_faults()
    server.wait_idle()
    return message, sheet_snapshot(server, sid) == before


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
        lock = game.parent / f".{game.name}.lock"
        tally.locks_left += lock.exists()
        tally.temp_files_left += len(list(game.parent.glob(f".{game.name}.*.tmp")))
        try:
            next_run(lambda game=game: run_turn(XlsxStore(game), Mode.SCHEDULED, seed=SEED))
            final = xlsx_snapshot(game)
            if final != reference.new:
                problems.append(f"the next run did not end with the new turn: "
                                f"{difference(final, reference.new)}")
            elif digest(game) != reference.new_digest:
                problems.append("the next run's workbook has other bytes than the reference")
            if lock.exists():
                problems.append("the next run left its lock file")
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

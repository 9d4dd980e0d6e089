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

The package's modules: :mod:`.game` (the game, its snapshots, comparing them),
:mod:`.child` (child processes), :mod:`.references` (clean resolves to compare with),
:mod:`.faults`, :mod:`.kills` and :mod:`.concurrency` (the runs and their tallies).
"""

from __future__ import annotations

from testkit.reliability.child import (
    CHILD_GATE,
    DONE,
    SHEETS_LATENCY,
    CliChild,
    sheets_command,
    sheets_env,
    xlsx_command,
)
from testkit.reliability.concurrency import (
    ConcurrencyTally,
    concurrent_sheets,
    concurrent_xlsx,
)
from testkit.reliability.faults import (
    FAULT_KINDS,
    FaultTally,
    fault_runs,
    never_clearing_run,
)
from testkit.reliability.game import (
    SEED,
    Snapshot,
    classify,
    difference,
    digest,
    game_state,
    sheet_locks,
    sheet_snapshot,
    sheets_store,
    upload,
    xlsx_snapshot,
)
from testkit.reliability.kills import (
    CHILD_LOCK_TTL,
    KILL_SPAN,
    LOCK_WAIT,
    CrashTally,
    crash_sheets,
    crash_xlsx,
    next_run,
)
from testkit.reliability.references import (
    Reference,
    in_process_reference,
    sheets_reference,
    xlsx_reference,
)

__all__ = [
    "CHILD_GATE", "CHILD_LOCK_TTL", "CliChild", "ConcurrencyTally", "CrashTally", "DONE",
    "FAULT_KINDS", "FaultTally", "KILL_SPAN", "LOCK_WAIT", "Reference", "SEED",
    "SHEETS_LATENCY", "Snapshot", "classify", "concurrent_sheets", "concurrent_xlsx",
    "crash_sheets", "crash_xlsx", "difference", "digest", "fault_runs", "game_state",
    "in_process_reference", "never_clearing_run", "next_run", "sheet_locks",
    "sheet_snapshot", "sheets_command", "sheets_env", "sheets_reference", "sheets_store",
    "upload", "xlsx_command", "xlsx_reference", "xlsx_snapshot",
]

"""Faults: resolves through the real gspread client against a fake that answers 429, 500,
503, times out or drops the connection; and runs whose faults never clear.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sheetmaster.app.runs import Mode, run_turn
from sheetmaster.kit.model import GameState
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.gsheets import RetryPolicy
from sheetmaster.testing.fakesheets import FakeSheetsServer
from testkit.reliability.game import (
    SEED,
    difference,
    sheet_locks,
    sheet_snapshot,
    sheets_store,
    upload,
)
from testkit.reliability.references import Reference

FAULT_KINDS: tuple[Any, ...] = (429, 500, 503, "timeout", "drop")


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
            run_turn(store, Mode.RESOLVE, seed=SEED, secret=reference.secret)
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

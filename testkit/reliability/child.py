"""``sheetmaster`` in child processes: the gate they wait at (:data:`CHILD_GATE`), the
commands they run, and starting a batch of them ahead of time.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from sheetmaster.stores.gsheets_client import ENDPOINT_ENV, LOCK_TTL_ENV, RETRY_DEADLINE_ENV
from sheetmaster.testing.fakesheets import FakeSheetsServer
from testkit.reliability.game import SEED

#: the fake's per-request latency in the kill and concurrency runs on Sheets, so that kills
#: land between requests and two runs overlap.
SHEETS_LATENCY = 0.05


CHILD_GATE = """\
import sys
import gspread
import sheetmaster.app.cli
import sheetmaster.stores.gsheets
print("ready", flush=True)
if sys.stdin.readline().strip() == "go":
    sys.exit(sheetmaster.app.cli.main(sys.argv[1:]))
"""


#: what the CLI prints once a resolve is written and its report too.
DONE = "resolved turn 2"


def _folder(path: Path) -> Path:
    """A folder for child processes to work in (the Sheets CLI writes its report there)."""
    path.mkdir(parents=True, exist_ok=True)
    return path


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

    def wait(self, timeout: float | None = None) -> tuple[int, str, str]:
        """The child's exit code and output, once it ends (however long a loaded machine
        takes, unless ``timeout`` says otherwise)."""
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

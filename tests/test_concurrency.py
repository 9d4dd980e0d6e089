"""Two resolves of one game started together: the turn advances exactly once, and the game
ends exactly as one clean resolve leaves it (a .xlsx workbook: two processes; a Google Sheet:
two processes, or two scheduled runs in threads)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sheetmaster.stores.base import StoreError
from sheetmaster.stores.xlsx import locked
from sheetmaster.stores.xlsx_files import is_locked
from sheetmaster.testing.fakesheets import FakeSheetsServer
from testkit import reliability as rel


@pytest.fixture(scope="module")
def state():
    return rel.game_state()


def _report(tally: rel.ConcurrencyTally) -> str:
    return (f"{tally.store}: {tally.rounds} rounds, {tally.runs} runs, {tally.advanced} "
            f"advanced the turn, {tally.stopped} stopped\n" + "\n".join(tally.problems))


def test_two_xlsx_resolves_at_once_advance_the_turn_once(state, tmp_path):
    reference = rel.xlsx_reference(tmp_path, state)
    tally = rel.concurrent_xlsx(tmp_path, reference, rounds=4)
    print(_report(tally))
    assert tally.lost == 0, _report(tally)
    assert tally.rounds == 4 and tally.runs == 8
    assert tally.advanced == 4 and tally.stopped == 4


def test_two_sheets_runs_at_once_advance_the_turn_once(state, tmp_path):
    with FakeSheetsServer() as server:
        reference = rel.sheets_reference(server, state, tmp_path)
        tally = rel.concurrent_sheets(server, state, reference, rounds=4, root=tmp_path)
    print(_report(tally))
    assert tally.lost == 0, _report(tally)
    assert tally.rounds == 4 and tally.runs == 8
    assert tally.advanced == 4 and tally.stopped == 4


def test_a_killed_runs_lock_is_released_with_it_and_a_live_one_keeps_others_out(tmp_path):
    """The lock is the operating system's lock on a file (filelock), so it goes with the
    process holding it: the stale-lock races of a pid file (taking over a dead run's lock
    while another run does, or a lock file just created and not yet written) cannot arise."""
    game = tmp_path / "game.xlsx"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys\n"
         "from pathlib import Path\n"
         "from sheetmaster.stores.xlsx import locked\n"
         "with locked(Path(sys.argv[1])):\n"
         "    print('locked', flush=True)\n"
         "    sys.stdin.read()\n", str(game)],  # holds the lock until it is killed
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        assert is_locked(game)
        with pytest.raises(StoreError, match="another sheetmaster run"), locked(game):
            pass
    finally:
        holder.kill()  # SIGKILL on POSIX, TerminateProcess on Windows: no clean-up runs
        holder.wait()
    with locked(game):
        assert is_locked(game)
    assert not is_locked(game)


def test_a_lock_file_left_behind_locks_nothing(tmp_path):
    game = tmp_path / "game.xlsx"
    lock = tmp_path / f".{game.name}.lock"
    for left in ("999999999", ""):  # a dead pid, or a lock file created and never written
        lock.write_text(left)
        with locked(game):
            pass
    assert not is_locked(game)

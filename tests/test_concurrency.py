"""Two resolves of one game started together: the turn advances exactly once, and the game
ends exactly as one clean resolve leaves it (a .xlsx workbook: two processes; a Google Sheet:
two processes, or two scheduled runs in threads)."""

from __future__ import annotations

import os
import time

import pytest

from sheetmaster.stores import xlsx as xlsx_store
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.xlsx import locked
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


def test_two_runs_taking_over_a_dead_runs_lock_at_once_do_not_both_get_it(tmp_path,
                                                                          monkeypatch):
    """Regression: run B found the dead run's lock stale; before B removed it, run A took it
    over and put its own lock there; B then removed A's lock and took one too: both ran."""
    game = tmp_path / "game.xlsx"
    lock = tmp_path / f".{game.name}.lock"
    lock.write_text("999999999")  # left by a run that was killed
    real_stale = xlsx_store._stale
    other_run = []

    def stale_while_another_run_takes_over(path):
        found = real_stale(path)
        if not other_run:  # B has looked; A takes the lock over now
            other_run.append(locked(game))
            other_run[0].__enter__()
        return found

    monkeypatch.setattr(xlsx_store, "_stale", stale_while_another_run_takes_over)
    with pytest.raises(StoreError, match="another sheetmaster run"), locked(game):
        pass
    assert lock.read_text() == str(os.getpid())  # A's lock is still there
    other_run[0].__exit__(None, None, None)
    assert not lock.exists()
    assert [p.name for p in tmp_path.iterdir()] == []


def test_a_lock_file_that_was_just_created_is_not_taken_for_a_dead_runs(tmp_path):
    """Regression: a run creates its lock file, then writes its pid into it; a second run
    that read the file in between found it empty, took it for stale and ran as well."""
    game = tmp_path / "game.xlsx"
    lock = tmp_path / f".{game.name}.lock"
    lock.write_text("")  # a run has just created it
    with pytest.raises(StoreError, match="another sheetmaster run"), locked(game):
        pass
    assert lock.exists()
    old = time.time() - xlsx_store.EMPTY_LOCK_GRACE_SECONDS - 5
    os.utime(lock, (old, old))  # ... or its run was killed before writing its pid
    with locked(game):
        assert lock.read_text() == str(os.getpid())
    assert not lock.exists()

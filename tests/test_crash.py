"""SIGKILL at random moments of `sheetmaster resolve`, on a .xlsx workbook and on a Google
Sheet (the CLI in a child process, talking to a fake served by this process): the game is
always exactly the old turn or exactly the new one, and the next run completes the turn.

SHEETMASTER_CRASH_KILLS sets how many kills per store (default 20).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from sheetmaster.app.runs import Mode, run_turn, undo_turn
from sheetmaster.rules.claims import RULESET
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.xlsx import XlsxStore, backup_path
from sheetmaster.stores.xlsx_files import is_locked
from sheetmaster.stores.xlsx_layout import write_new_workbook
from sheetmaster.testing.fakesheets import FakeSheetsServer
from testkit import reliability as rel

KILLS = int(os.environ.get("SHEETMASTER_CRASH_KILLS", "20"))
pytestmark = pytest.mark.skipif(sys.platform == "win32",
                                reason="the kills are SIGKILL, which Windows does not have")


@pytest.fixture(scope="module")
def state():
    return rel.game_state()


def _report(tally: rel.CrashTally) -> str:
    return (f"{tally.store}: {tally.kills} kills ({tally.mid_run} mid-run), old "
            f"{tally.ended_old}, new {tally.ended_new}, locks left {tally.locks_left}, temp "
            f"files left {tally.temp_files_left}, survived {tally.survived}\n"
            + "\n".join(tally.problems))


@pytest.mark.long  # SIGKILL at random moments: a reliability run
def test_killing_an_xlsx_resolve_leaves_the_old_or_the_new_turn(state, tmp_path):
    reference = rel.xlsx_reference(tmp_path, state)
    assert reference.old != reference.new
    tally = rel.crash_xlsx(tmp_path, reference, KILLS, seed=1)
    print(_report(tally))
    assert tally.kills == KILLS
    assert tally.lost == 0, _report(tally)
    assert tally.survived == KILLS


@pytest.mark.long  # SIGKILL at random moments: a reliability run
def test_killing_a_sheets_resolve_leaves_the_old_or_the_new_turn(state, tmp_path):
    with FakeSheetsServer() as server:
        reference = rel.sheets_reference(server, state, tmp_path)
        assert reference.old != reference.new
        tally = rel.crash_sheets(server, state, reference, KILLS, tmp_path, seed=1)
    print(_report(tally))
    assert tally.kills == KILLS
    assert tally.lost == 0, _report(tally)
    assert tally.survived == KILLS


@pytest.mark.long  # a one-second lock must still be held when the next run asks: wall-clock
def test_a_killed_sheets_runs_lock_expires_and_the_next_run_completes_the_turn(state):
    with FakeSheetsServer() as server:
        reference = rel.in_process_reference(server, state)
        sid = rel.upload(server, state)
        dead = rel.sheets_store(server, sid, lock_ttl=1)
        dead.lock()  # ... and the run dies holding it
        with pytest.raises(StoreError, match="another sheetmaster run"):
            run_turn(rel.sheets_store(server, sid), Mode.SCHEDULED, seed=rel.SEED)
        assert rel.sheet_snapshot(server, sid) == reference.old
        outcome = rel.next_run(lambda: run_turn(rel.sheets_store(server, sid), Mode.SCHEDULED,
                                                seed=rel.SEED), wait=5)
        assert outcome.written
        assert rel.sheet_snapshot(server, sid) == reference.new
        assert rel.sheet_locks(server, sid) == []


def test_leftovers_of_a_killed_xlsx_run_do_not_block_the_next(state, tmp_path):
    game = tmp_path / "game.xlsx"
    write_new_workbook(RULESET, game, state)
    old = rel.xlsx_snapshot(game)
    (tmp_path / f".{game.name}.lock").write_text("999999999")  # a dead pid
    (tmp_path / f".{game.name}.abc123.tmp").write_bytes(b"PK\x03\x04 half a workbook")
    backup_path(game, 2).parent.mkdir()
    (backup_path(game, 2).parent / ".before-turn-2.xlsx.def456.tmp").write_bytes(b"PK")
    outcome = run_turn(XlsxStore(game), Mode.SCHEDULED, seed=rel.SEED)
    assert outcome.written
    assert not is_locked(game)
    assert not list(tmp_path.glob("*.tmp")) and not list(tmp_path.glob("*/*.tmp"))
    assert rel.xlsx_snapshot(backup_path(game, 2)) == old
    assert undo_turn(XlsxStore(game)) == 2
    assert rel.xlsx_snapshot(game) == old


def test_a_backup_cut_short_by_a_crash_is_never_left_for_undo(state, tmp_path, monkeypatch):
    """Regression: the pre-turn backup was copied in place, so a run killed while copying it
    left a truncated before-turn-N.xlsx that `sheetmaster undo` would then restore."""
    game = tmp_path / "game.xlsx"
    write_new_workbook(RULESET, game, state)
    old = rel.xlsx_snapshot(game)
    real_copy = shutil.copy2

    def copy_cut_short(src, dst, **kw):
        data = Path(src).read_bytes()
        with open(dst, "wb") as f:
            f.write(data[: len(data) // 2])
        raise OSError("killed while copying")

    monkeypatch.setattr(shutil, "copy2", copy_cut_short)
    with pytest.raises(OSError, match="killed while copying"):
        run_turn(XlsxStore(game), Mode.RESOLVE, seed=rel.SEED)
    monkeypatch.setattr(shutil, "copy2", real_copy)
    assert rel.xlsx_snapshot(game) == old
    assert not backup_path(game, 2).exists()
    with pytest.raises(StoreError, match="nothing to undo"):
        undo_turn(XlsxStore(game))
    assert run_turn(XlsxStore(game), Mode.RESOLVE, seed=rel.SEED).written
    assert rel.xlsx_snapshot(backup_path(game, 2)) == old

"""The nightly Sheets benchmark runs end to end (--quick); no timings are asserted here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "sheets_nightly.py"
#: benchmark smoke runs: `pytest -m long`
pytestmark = pytest.mark.long


def test_quick_nightly_benchmark_compares_both_ways(tmp_path: Path) -> None:
    out = tmp_path / "nightly.json"
    done = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "sheetmaster" in done.stdout and "per tab (gspread)" in done.stdout
    assert "requests" in done.stdout and "wall s" in done.stdout

    report = json.loads(out.read_text(encoding="utf-8"))
    ours, theirs = report["rows"]
    assert [ours["way"], theirs["way"]] == ["sheetmaster", "per tab (gspread)"]
    # sheetmaster's whole nightly turn: lock, one read (by sheetId), one batchUpdate.
    assert 1 <= ours["requests"] <= 3
    assert theirs["requests"] > ours["requests"]
    for row in (ours, theirs):
        assert row["wall_s"] > 0
        assert row["tabs_written"] > 0 and row["cells_written"] > 0
    # both ways resolved the same turn and left the same values in every tab.
    assert report["same_result"] is True
    assert report["game"]["orders"] > 0 and report["game"]["players"] >= 2


def test_payload_benchmark_splits_a_write_over_its_limit(tmp_path: Path) -> None:
    """100 territories with a 20 kB limit: the write goes in several requests, none over it."""
    out = tmp_path / "payload.json"
    script = SCRIPT.with_name("sheets_payload.py")
    done = subprocess.run([sys.executable, str(script), "--sizes", "100,200", "--limit",
                           "20000", "--out", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "written MB" in done.stdout and "largest MB" in done.stdout
    rows = json.loads(out.read_text(encoding="utf-8"))
    assert [r["territories"] for r in rows] == [100, 200]
    for row in rows:
        assert row["write_requests"] > 1
        assert row["requests"] == row["write_requests"] + 2  # lock, one read, the writes
        assert row["largest_request"] <= 20_000 and row["over_recommended"] == 0
    assert rows[1]["write_bytes"] > rows[0]["write_bytes"]


def test_ceiling_benchmark_plays_a_turn_in_a_fake_of_its_own(tmp_path: Path) -> None:
    """The ceiling game, small: the fake in a child process, each stage timed, both
    processes' memory reported, and the game within the 10-million-cell ceiling."""
    out = tmp_path / "ceiling.json"
    script = SCRIPT.with_name("sheets_ceiling.py")
    done = subprocess.run([sys.executable, str(script), "--quick", "--latency", "0.01",
                           "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    stages = dict(report["stages"])
    assert {"lock (batchUpdate, tab list)", "read", "resolve", "write"} <= set(stages)
    assert all(seconds >= 0 for seconds in stages.values())
    assert report["requests"] == report["write_requests"] + 2  # lock, one read, the writes
    assert report["cells_after"]["filled"] > report["cells_before"]["filled"]
    assert report["under_the_ceiling"] and report["gm_peak_mib"] > 0
    assert report["fake_peak_mib"] > 0 and "the whole turn" in done.stdout

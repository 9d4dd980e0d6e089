"""The reliability benchmark runs end to end (--quick) and loses nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "reliability.py"
#: a reliability run (fuzzing, faults, kills, concurrent runs) of a few minutes: `pytest -m long`
pytestmark = pytest.mark.long


@pytest.mark.skipif(sys.platform == "win32",
                    reason="its kills are SIGKILL, which Windows does not have")
def test_quick_reliability_run_reports_every_figure_and_loses_nothing(tmp_path: Path) -> None:
    out = tmp_path / "reliability.json"
    done = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--out", str(out)],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    text = done.stdout
    assert "fuzzing: " in text
    for line in ("faults injected", "survived", "kills (", "concurrent runs",
                 "advanced the turn", "data lost: 0"):
        assert line in text, text

    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["data_lost"] == 0
    for mode in ("before apply", "after apply"):
        faults = report["faults"][mode]
        assert faults["faults"] > 0 and faults["survived"] == faults["faults"]
    assert all(n["unchanged"] for n in report["faults"]["never clears"])
    for store in ("xlsx", "sheets"):
        kills = report["kills"][store]
        assert kills["kills"] == report["settings"]["kills"] == kills["survived"]
        race = report["concurrency"][store]
        assert race["advanced"] == race["rounds"] == report["settings"]["rounds"]
    assert list(tmp_path.iterdir()) == [out]  # nothing left behind in the working folder

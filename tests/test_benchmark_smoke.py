"""The scale benchmark runs end to end (quick sizes); no timings are asserted here."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "claims_scale.py"


@pytest.mark.long  # a benchmark smoke run
def test_quick_benchmark_produces_a_result_table(tmp_path: Path) -> None:
    out = tmp_path / "results.json"
    done = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "resolve s" in done.stdout and "peak MiB" in done.stdout
    assert "XlsxStore.load" in done.stdout

    report = json.loads(out.read_text(encoding="utf-8"))
    sizes = report["sizes"]
    assert [r["size"] for r in sizes] == [100, 1000]
    for row in sizes:
        assert row["players"] >= 2
        assert row["orders"] > 0
        assert row["applied"] + row["partial"] + row["rejected"] == row["orders"]
        assert row["applied"] > 0 and row["rejected"] > 0
        assert row["resolve_s"] > 0
        assert row["peak_mib"] > 0 or sys.platform == "win32"  # Windows: no getrusage
    assert sizes[1]["scaling"] in ("PASS", "FAIL")
    io = report["io"]
    assert io["size"] == 1000
    assert io["sheetmaster_load_s"] > 0 and io["pandas_openpyxl_load_s"] > 0
    assert io["save_s"] > 0 and io["cells_changed"] > 0
    assert io["openpyxl_save_s"] > 0 and io["save_verdict"] in ("PASS", "FAIL")


@pytest.mark.long  # a benchmark smoke run
def test_runs_take_the_median_of_fresh_processes(tmp_path: Path) -> None:
    """--runs N: each size resolved in N fresh processes, the table's figure their median."""
    out = tmp_path / "results.json"
    done = subprocess.run([sys.executable, str(SCRIPT), "--sizes", "100,200", "--load-size",
                           "0", "--runs", "3", "--out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("in a fresh process (run ") == 6
    assert "10^2: median of 3 runs" in done.stdout
    for row in json.loads(out.read_text(encoding="utf-8"))["sizes"]:
        times = row["resolve_runs_s"]
        assert len(times) == 3 and row["resolve_s"] == sorted(times)[1]
    bad = subprocess.run([sys.executable, str(SCRIPT), "--runs", "0"], capture_output=True,
                         text=True)
    assert bad.returncode == 2 and "--runs must be at least 1" in bad.stderr


def test_synthetic_game_covers_every_order_kind() -> None:
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import claims_scale
    finally:
        sys.path.remove(str(SCRIPT.parent))
    game = claims_scale.generate_game(1000)
    assert game.players == 10
    kinds = {row["order"] for row in game.orders}
    assert kinds == {"claim war territory", "claim neutral territory", "propose transfer",
                     "accept transfer", "commit dice", "build armies"}
    assert game.order_mix["malformed"] > 0
    territories = {t["territory"]: t for t in game.tables["Territories"]}
    for name, row in territories.items():
        for column in ("borders", "waterways"):
            for other in filter(None, row[column].split(", ")):
                assert name in territories[other][column].split(", ")
    again = claims_scale.generate_game(1000)
    assert again.orders == game.orders and again.tables == game.tables


MAPS = SCRIPT.parent / "map_recolour.py"


@pytest.mark.long  # a benchmark smoke run
def test_quick_map_benchmark_produces_its_figures(tmp_path: Path) -> None:
    out = tmp_path / "maps.json"
    done = subprocess.run([sys.executable, str(MAPS), "--quick", "--out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "recolour target: under 1 s" in done.stdout
    report = json.loads(out.read_text(encoding="utf-8"))
    assert (report["width"], report["height"], report["provinces"]) == (800, 400, 300)
    for key in ("recolour_s", "picture_s", "png_s", "per_pixel_python_s",
                "mask_per_province_s"):
        assert report[key] > 0, key
    assert report["png_bytes"] > 1000


REPORTS = SCRIPT.parent / "reports.py"


@pytest.mark.long  # a benchmark smoke run
def test_quick_reports_benchmark_produces_its_figures(tmp_path: Path) -> None:
    out = tmp_path / "reports.json"
    done = subprocess.run([sys.executable, str(REPORTS), "--quick", "--out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "public MB" in done.stdout and "largest own MB" in done.stdout
    sizes = json.loads(out.read_text(encoding="utf-8"))["sizes"]
    assert [r["size"] for r in sizes] == [100, 1000]
    for row in sizes:
        assert row["reports"] == row["players"] + 1  # every player's own, and the GM's
        for key in ("public_cpu_s", "gm_cpu_s", "player_reports_cpu_s", "public_mb", "gm_mb",
                    "player_reports_mb", "largest_own_mb"):
            assert row[key] > 0, key
        assert math.isclose(row["all_mb"], row["public_mb"] + row["player_reports_mb"])


def test_the_flood_benchmark_runs_and_every_channel_gets_its_messages(tmp_path: Path) -> None:
    out = tmp_path / "flood.json"
    script = SCRIPT.with_name("flood.py")
    done = subprocess.run([sys.executable, str(script), "--rows", "1200", "--store", "xlsx",
                           "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(out.read_text(encoding="utf-8"))
    assert row["exit"] == 0 and not row["traceback"] and row["refused"] == 0
    assert row["channels"] == row["of_channels"] == 6
    # Avalon's rows past the first 500 are summed up in one line: the report stays small
    assert 0 < row["public_mb"] < 0.1


@pytest.mark.long  # two benchmark smoke runs
@pytest.mark.parametrize("script, size", [("decades_season.py", 540),
                                          ("eighteen_hundred_round.py", 500)])
def test_the_growth_benchmarks_write_their_rows(tmp_path: Path, script: str, size: int) -> None:
    """decades' and 1800's scale benchmarks (issue 26.1) resolve a valid generated game in a
    fresh process and write each size's median as JSON."""
    out = tmp_path / "rows.json"
    done = subprocess.run([sys.executable, str(SCRIPT.parent / script), "--sizes",
                           f"{size},{2 * size}", "--runs", "2", "--out", str(out)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "resolve s" in done.stdout and "x time" in done.stdout
    rows = json.loads(out.read_text(encoding="utf-8"))["rows"]
    assert [r["runs"] for r in rows] == [2, 2] and rows[1]["provinces"] > rows[0]["provinces"]
    for row in rows:
        assert row["resolve_s"] > 0 and row["orders"] > 0
        assert row["applied"] >= 0.9 * (row["applied"] + row["blocked"] + row["rejected"])

"""Every golden turn case under tests/golden/<ruleset>/ is one test."""

from pathlib import Path

import pytest

from sheetmaster.testing.golden import case_paths, load_case, run_case

ROOT = Path(__file__).parent / "golden"
CASES = case_paths(ROOT)


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_golden_turn(path: Path) -> None:
    run_case(load_case(path))


def test_every_case_quotes_its_rule() -> None:
    for path in CASES:
        case = load_case(path)
        assert len(case.data["rule"].split()) >= 5, f"{path.name}: quote the rule text"

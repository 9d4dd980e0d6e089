"""The shipped workbooks: a blank template and a playable example game."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest

from sheetmaster import rules
from sheetmaster.app.cli import main
from sheetmaster.stores.xlsx import XlsxStore

TEMPLATES = Path(__file__).parent.parent / "templates"


WITH_EXAMPLES = sorted(name for name, r in rules.available().items() if r.example)


@pytest.mark.parametrize("ruleset", WITH_EXAMPLES)
def test_example_is_what_new_example_writes(tmp_path, ruleset):
    fresh = tmp_path / "fresh.xlsx"
    main(["new", ruleset, str(fresh), "--example"])
    shipped = XlsxStore(TEMPLATES / f"{ruleset}-example.xlsx").load()
    again = XlsxStore(fresh).load()
    assert shipped.tables.keys() == again.tables.keys()
    for tab in shipped.tables:
        pd.testing.assert_frame_equal(shipped.tables[tab], again.tables[tab])


@pytest.mark.parametrize(("ruleset", "turn"), [("claims", 2), ("clans", 5), ("goldenage", 4),
                                              ("decades", 2), ("eighteen_hundred", 1)])
def test_example_resolves_from_the_shipped_file(tmp_path, ruleset, turn):
    game = tmp_path / "example.xlsx"
    shutil.copy(TEMPLATES / f"{ruleset}-example.xlsx", game)
    # the examples' dice secret ships with them: an example is for trying, not for playing
    shutil.copy(TEMPLATES / f"{ruleset}-example.xlsx.dice-secret", tmp_path /
                "example.xlsx.dice-secret")
    assert main(["resolve", str(game), "-q"]) == 0
    assert (tmp_path / f"example-turn-{turn}-report.md").exists()
    assert main(["resolve", str(game), "-q"]) == 0


def test_blank_template_has_the_claims_tabs():
    state = XlsxStore(TEMPLATES / "claims-template.xlsx").load()
    assert list(state.tables["Players"].columns)[:2] == ["player", "gold"]
    assert len(state.tables["Territories"]) == 0

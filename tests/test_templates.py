"""The shipped workbooks: a blank template and a playable example game."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd

from sheetmaster.cli import main
from sheetmaster.stores.xlsx import XlsxStore

TEMPLATES = Path(__file__).parent.parent / "templates"


def test_example_is_what_new_example_writes(tmp_path):
    fresh = tmp_path / "fresh.xlsx"
    main(["new", "claims", str(fresh), "--example"])
    shipped = XlsxStore(TEMPLATES / "claims-example.xlsx").load()
    again = XlsxStore(fresh).load()
    assert shipped.tables.keys() == again.tables.keys()
    for tab in shipped.tables:
        pd.testing.assert_frame_equal(shipped.tables[tab], again.tables[tab])


def test_example_resolves_from_the_shipped_file(tmp_path):
    game = tmp_path / "example.xlsx"
    shutil.copy(TEMPLATES / "claims-example.xlsx", game)
    assert main(["resolve", str(game), "-q"]) == 0
    assert main(["resolve", str(game), "-q"]) == 0


def test_blank_template_has_the_claims_tabs():
    state = XlsxStore(TEMPLATES / "claims-template.xlsx").load()
    assert list(state.tables["Players"].columns)[:2] == ["player", "gold"]
    assert len(state.tables["Territories"]) == 0

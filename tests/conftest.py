from __future__ import annotations

from pathlib import Path

import pytest

from sheetmaster.engine.builder import build_state
from sheetmaster.rules.claims import RULESET
from sheetmaster.stores.xlsx_layout import write_new_workbook


@pytest.fixture
def claims():
    return RULESET


@pytest.fixture
def example_state(claims):
    tables, orders, settings = claims.example()
    return build_state(claims, tables, orders, turn=2, settings=settings)


@pytest.fixture
def example_book(tmp_path: Path, claims, example_state) -> Path:
    path = tmp_path / "game.xlsx"
    write_new_workbook(claims, path, example_state)
    return path

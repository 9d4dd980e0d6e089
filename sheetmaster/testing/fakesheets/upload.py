"""Putting a game on the fake: a GameState's tabs, or a workbook's, as a new spreadsheet."""

from __future__ import annotations

import datetime as dt
import math
from pathlib import Path
from typing import Any

from sheetmaster.model import GameState

from .server import FakeSheetsServer


def state_rows(state: GameState) -> dict[str, list[list[Any]]]:
    """Every tab as rows of cell values, header first (blank cells are '')."""
    out = {}
    for tab, df in state.tables.items():
        rows = [[_cell(v) for v in r] for r in df.itertuples(index=False)]
        out[tab] = [list(df.columns), *rows]
    return out


def _cell(value: Any) -> Any:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return value.isoformat(sep=" ") if isinstance(value, dt.datetime) else value.isoformat()
    return value


def upload_state(server: FakeSheetsServer, state: GameState, *, title: str = "game",
                 time_zone: str = "UTC", **options: Any) -> str:
    """A new spreadsheet on the fake holding the game; returns its id. ``options`` go to
    :meth:`FakeSheetsServer.create_spreadsheet` (``owner``, ``locale``...)."""
    return server.create_spreadsheet(title=title, sheets=state_rows(state), time_zone=time_zone,
                                     **options)


def upload_workbook(server: FakeSheetsServer, path: str | Path) -> str:
    """A new spreadsheet on the fake holding a workbook's tabs (their values); returns its id."""
    from sheetmaster.stores.xlsx import XlsxStore

    path = Path(path)
    return upload_state(server, XlsxStore(path).load(), title=path.stem)

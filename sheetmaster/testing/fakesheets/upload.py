"""Putting a game on the fake: a GameState's tabs, or a workbook's, as a new spreadsheet."""

from __future__ import annotations

import datetime as dt
import math
from pathlib import Path
from typing import Any

from sheetmaster.kit.model import GameState

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
                 time_zone: str = "UTC", secret: str | None = None,
                 env_secret: str | None = None, editors: list[str] | tuple[str, ...] = (),
                 **options: Any) -> str:
    """A new spreadsheet on the fake holding the game; returns its id. ``options`` go to
    :meth:`FakeSheetsServer.create_spreadsheet` (``owner``, ``locale``...). With the game's
    dice ``secret`` (as a SheetsStore is given it) or ``env_secret`` (as the CLI reads it from
    SHEETMASTER_DICE_SECRET, bound to the sheet by ``fairness.for_sheet``), the game is laid
    out as ``init`` lays it out: every tab but the players' orders protected for its owner
    and ``editors``, and the game bound to its tabs (see :func:`bind_game`)."""
    sid = server.create_spreadsheet(title=title, sheets=state_rows(state), time_zone=time_zone,
                                    **options)
    if env_secret is not None:
        from sheetmaster.kit.fairness import for_sheet

        secret = for_sheet(env_secret, sid)
    if secret is not None:
        bind_game(server, sid, secret, editors)
    return sid


def bind_game(server: FakeSheetsServer, spreadsheet_id: str, secret: str,
              editors: list[str] | tuple[str, ...] = ()) -> None:
    """``sheetmaster init`` run again by the spreadsheet's owner on a game already in it: the
    tabs kept, protected for the owner and ``editors``, and bound with ``secret``."""
    from sheetmaster.app.runs import ruleset_of
    from sheetmaster.stores.gsheets import SheetsStore
    from sheetmaster.stores.gsheets_init import lay_out

    store = SheetsStore(spreadsheet_id, server.client(), secret=secret)
    store.binding_required = False
    with store.locked():
        ruleset = ruleset_of(store.load(orders_sheet=False))
    lay_out(store, ruleset, list(editors), secret)


def upload_workbook(server: FakeSheetsServer, path: str | Path, **options: Any) -> str:
    """A new spreadsheet on the fake holding a workbook's tabs (their values); returns its id.
    ``options`` go to :func:`upload_state`."""
    from sheetmaster.stores.xlsx import XlsxStore

    path = Path(path)
    return upload_state(server, XlsxStore(path).load(), title=path.stem, **options)

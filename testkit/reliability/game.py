"""The game every reliability check runs (the claims example, due), on the fake Sheets
server or in a workbook; its snapshots, and how two of them compare.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from sheetmaster.engine.builder import build_state
from sheetmaster.kit.model import GameState
from sheetmaster.rules.claims import RULESET
from sheetmaster.stores.gsheets import LOCK_KEY, RetryPolicy, SheetsStore
from sheetmaster.testing.fakesheets import FakeSheetsServer
from sheetmaster.testing.fakesheets.upload import upload_state

#: the dice seed every run uses (``--seed`` on the command line).
SEED = 11


#: a game's content: every tab's values, as rows.
Snapshot = dict[str, list[list[Any]]]


# -- the game ------------------------------------------------------------------------------

def game_state(now: datetime | None = None) -> GameState:
    """The claims example game on turn 2, its deadline an hour ago (so a plain ``resolve``
    and a scheduled run both resolve it) and 24 hours a turn (so once resolved, the next turn
    is not due and a second or late run changes nothing)."""
    now = now or datetime.now(timezone.utc)
    deadline = (now - timedelta(hours=1)).strftime("%Y-%m-%d %H:%M")
    tables, orders, settings = RULESET.example()
    settings = dict(settings, timezone="UTC", deadline=deadline,
                    **{"turn length (hours)": 24})
    return build_state(RULESET, tables, orders, turn=2, settings=settings)


def _trim(rows: list[list[Any]]) -> list[list[Any]]:
    """Rows without trailing empty cells and trailing empty rows (as values.get gives them)."""
    out = []
    for row in rows:
        row = list(row)
        while row and row[-1] in ("", None):
            row.pop()
        out.append(row)
    while out and not out[-1]:
        out.pop()
    return out


def xlsx_snapshot(path: Path) -> Snapshot:
    """Every tab of a workbook, read with calamine; raises if it is not a readable workbook."""
    from python_calamine import CalamineWorkbook

    book = CalamineWorkbook.from_path(str(path))
    return {name: _trim(book.get_sheet_by_name(name).to_python(skip_empty_area=False))
            for name in book.sheet_names}


def digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def upload(server: FakeSheetsServer, state: GameState) -> str:
    """A new spreadsheet on the fake holding the game; returns its id."""
    return upload_state(server, state)


def sheet_snapshot(server: FakeSheetsServer, sid: str) -> Snapshot:
    """Every tab of a spreadsheet (sheetmaster's hidden undo tab too), unformatted."""
    titles = [s["properties"]["title"] for s in server.metadata(sid)["sheets"]]
    return {title: _trim(server.values(sid, title)) for title in titles}


def sheet_locks(server: FakeSheetsServer, sid: str) -> list[dict[str, Any]]:
    return [m for m in server.developer_metadata(sid) if m.get("metadataKey") == LOCK_KEY]


def sheets_store(server: FakeSheetsServer, sid: str, *, timeout: float | None = None,
                 retry: RetryPolicy | None = None, **kw: Any) -> SheetsStore:
    """A SheetsStore on the fake through the real gspread client, quick to retry; a request
    waits as long as it takes unless ``timeout`` (seconds) says otherwise, so that a loaded
    machine fails nothing."""
    client = server.client()
    client.set_timeout(timeout)
    retry = retry or RetryPolicy(deadline=30, first_wait=0.01, max_wait=0.1)
    return SheetsStore(sid, client, retry=retry, **kw)


def classify(snapshot: Snapshot | None, old: Snapshot, new: Snapshot) -> str:
    """'old', 'new', or 'mixed' (anything else; None for a game that cannot be read)."""
    if snapshot == old:
        return "old"
    if snapshot == new:
        return "new"
    return "mixed"


def difference(got: Snapshot | None, want: Snapshot) -> str:
    """The first tab and row where two games differ, for a readable failure."""
    if got is None:
        return "the game cannot be read"
    if set(got) != set(want):
        return f"tabs {sorted(got)} instead of {sorted(want)}"
    for tab in want:
        if got[tab] != want[tab]:
            for i, (a, b) in enumerate(zip(got[tab], want[tab]), start=1):
                if a != b:
                    return f"tab {tab!r} row {i}: {a!r} instead of {b!r}"
            return f"tab {tab!r}: {len(got[tab])} rows instead of {len(want[tab])}"
    return "no difference"

"""Every store passes the same golden turns and writes back exactly the engine's new state.

Each golden case goes: its tables -> the store -> load -> resolve (expectations checked) ->
save -> load again, which must equal the engine's after-tables in every column the engine
writes.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from sheetmaster.kit.model import GameState, TurnResult
from sheetmaster.kit.schema import Problems, validate_table
from sheetmaster.kit.tabs import all_tables
from sheetmaster.kit.values import is_blank
from sheetmaster.stores.gsheets import RetryPolicy, SheetsStore
from sheetmaster.stores.xlsx import XlsxStore
from sheetmaster.stores.xlsx_layout import write_new_workbook
from sheetmaster.testing.fakesheets import FakeSheetsServer
from sheetmaster.testing.golden import case_paths, load_case, run_case

CASES = case_paths(Path(__file__).parent / "golden")
#: every case goes through both stores in the long run; the default run takes one case in
#: SAMPLE of each ruleset's, every ruleset's tabs through both stores (tests/test_golden.py
#: runs every case through the engine in the default run too).
SAMPLE = 4


def sampled(paths: list[Path]) -> list:
    """Each case as a parameter; all but one in SAMPLE of each ruleset's marked long."""
    seen: dict[str, int] = {}
    out = []
    for path in paths:
        n = seen[path.parent.name] = seen.get(path.parent.name, -1) + 1
        out.append(pytest.param(path, id=f"{path.parent.name}/{path.stem}",
                                marks=() if n % SAMPLE == 0 else (pytest.mark.long,)))
    return out


@pytest.fixture(scope="module")
def server():
    with FakeSheetsServer() as fake:
        yield fake


class XlsxRoundTrip:
    def __init__(self, tmp_path: Path, ruleset, state: GameState) -> None:
        self.path = tmp_path / "game.xlsx"
        write_new_workbook(ruleset, self.path, state)

    def load(self) -> GameState:
        return XlsxStore(self.path).load()

    def save(self, ruleset, result: TurnResult) -> None:
        XlsxStore(self.path).save(ruleset, result, backup=False)


class SheetsRoundTrip:
    def __init__(self, server: FakeSheetsServer, ruleset, state: GameState) -> None:
        self.server = server
        sheets = {tab: [list(df.columns)] + [["" if v is None else v for v in row]
                                             for row in df.itertuples(index=False)]
                  for tab, df in state.tables.items()}
        self.sid = server.create_spreadsheet(title="golden", sheets=sheets)

    def _store(self) -> SheetsStore:
        return SheetsStore(self.sid, self.server.client(), retry=RetryPolicy(deadline=5))

    def load(self) -> GameState:
        store = self._store()
        with store.locked():
            return store.load()

    def save(self, ruleset, result: TurnResult) -> None:
        store = self._store()
        store.lock()
        store.load()
        store.save(ruleset, result)


def _norm(value):
    if is_blank(value):
        return ""
    if isinstance(value, Decimal):  # an exact number is written as its float (or text)
        value = float(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return value


def assert_written(ruleset, result: TurnResult, reloaded: GameState) -> None:
    names = result.before.meta.get("tab_names", {})
    for table in all_tables(ruleset):
        owned = [c.name for c in table.columns if c.owned]
        want = result.after.tables[table.tab]
        got = reloaded.tables[names.get(table.tab, table.tab)]
        if not table.player_input and not table.append_only:
            got = validate_table(table, got, Problems())  # typed as the engine reads it
        assert list(got.index) == list(want.index), table.tab
        for column in owned:
            if column not in got.columns or column in got.attrs.get("absent", ()):
                continue
            left = [_norm(v) for v in got[column].tolist()]
            right = [_norm(v) for v in want[column].tolist()]
            assert left == right, f"{table.tab}.{column}"


@pytest.mark.parametrize("store_kind", ["xlsx", "sheets"])
@pytest.mark.parametrize("path", sampled(CASES))
def test_golden_turn_through_the_store(path: Path, store_kind: str, tmp_path: Path, server):
    case = load_case(path)
    ruleset = case.ruleset
    state = case.state()
    trip = XlsxRoundTrip(tmp_path, ruleset, state) if store_kind == "xlsx" else \
        SheetsRoundTrip(server, ruleset, state)
    result = run_case(case, trip.load())
    if result is None:
        return  # the store refused the broken state, as the case expects
    trip.save(ruleset, result)
    assert_written(ruleset, result, trip.load())

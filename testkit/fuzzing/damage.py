"""Damaged states: a valid game broken (a column dropped, text in a number column, the
ruleset's own cross-reference damages from :data:`DAMAGES`...), and whether
sheetmaster refuses it right, in memory and as a workbook run through the CLI.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from sheetmaster.engine.turn import _orders_tab, find_tab, prepare, resolve
from sheetmaster.kit import values
from sheetmaster.kit.fairness import secret_path, write_secret
from sheetmaster.kit.model import GameState, TurnResult
from sheetmaster.kit.ruleset import Ruleset
from sheetmaster.kit.schema import Kind, StateError
from sheetmaster.kit.tabs import GAME_TAB, ORDERS_TAB, all_tables
from sheetmaster.stores.base import StoreError
from testkit.fuzzing.games import SECRET

# -- damaged states ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Damage:
    """A change that breaks a game's state, and where the StateError must point.

    ``ops``: ("set", tab, row, column, value), ("drop column", tab, column),
    ("rename column", tab, column, new header), ("twin column", tab, column),
    ("drop tab", tab), ("look-alike tab", tab): a copy of the tab added, named as it is with
    a no-break space after, ("spell tab", tab): the tab renamed in lower case. Tabs and
    columns are the declared names; they are looked up in the sheet the way sheetmaster
    looks them up.
    """

    what: str
    tab: str
    row: int | None
    column: str | None
    ops: tuple[tuple[Any, ...], ...]
    #: what sort of damage it is, if not told by its first op (see :attr:`kind`).
    group: str = ""

    @property
    def kind(self) -> str:
        """missing tab, column dropped / renamed / twice, game setting, bad cell, duplicate
        name, or the ruleset's own (cross reference)."""
        if self.group:
            return self.group
        op = self.ops[0][0]
        if op == "set":
            return "game setting" if self.tab == GAME_TAB else "bad cell"
        return {"drop tab": "missing tab", "drop column": "column dropped",
                "rename column": "column renamed", "twin column": "column twice",
                "look-alike tab": "look-alike tab", "spell tab": "tab misspelled"}[op]


def _header(df: pd.DataFrame, column: str) -> Any:
    for c in df.columns:
        if values.fold(str(c)) == values.fold(column):
            return c
    raise KeyError(column)


def damage_state(raw: GameState, damage: Damage) -> GameState:
    tables = dict(raw.tables)
    for op in damage.ops:
        name = find_tab(tables, op[1])
        if name is None:
            raise KeyError(op[1])
        if op[0] == "drop tab":
            del tables[name]
            continue
        if op[0] == "look-alike tab":
            tables[name + "\u00a0"] = tables[name].copy()
            continue
        if op[0] == "spell tab":
            tables[_spelled(name)] = tables.pop(name)
            continue
        df = tables[name].copy()
        header = _header(df, op[2]) if op[0] != "set" else _header(df, op[3])
        if op[0] == "set":
            df[header] = df[header].astype(object)
            df.at[op[2], header] = op[4]
        elif op[0] == "drop column":
            df = df.drop(columns=[header])
        elif op[0] == "rename column":
            df = df.rename(columns={header: op[3]})
        elif op[0] == "twin column":
            df[f" {header}"] = df[header]  # another header that reads the same
        tables[name] = df
    return GameState(tables, dict(raw.meta))


def _spelled(tab: str) -> str:
    """The tab's name in other letters' case: what sheetmaster must not take for it."""
    return tab.lower() if tab.lower() != tab else tab.upper()


def generic_damages(ruleset: Ruleset, raw: GameState) -> list[Damage]:
    """Damages every ruleset's game can suffer, derived from its declared tables."""
    prepared = prepare(ruleset, raw, SECRET)
    out: list[Damage] = []
    for table in all_tables(ruleset):
        df = prepared.state.tables[table.tab]
        wanted = _orders_tab(raw) if table.tab == ORDERS_TAB else table.tab
        out.append(Damage(f"tab {wanted!r} is missing", wanted, None, None,
                          (("drop tab", wanted),)))
        out.append(Damage(f"a look-alike of tab {wanted!r} is added", wanted, None, None,
                          (("look-alike tab", wanted),)))
        out.append(Damage(f"tab {wanted!r} is spelled in other case", wanted, None, None,
                          (("spell tab", wanted),)))
        absent = set(df.attrs.get("absent", ()))
        for column in table.columns:
            if column.optional or column.name in absent:
                continue
            out.append(Damage(f"{table.tab}: column {column.name!r} dropped", table.tab, 1,
                              column.name, (("drop column", wanted, column.name),)))
            out.append(Damage(f"{table.tab}: column {column.name!r} renamed", table.tab, 1,
                              column.name, (("rename column", wanted, column.name,
                                             column.name + " (old)"),)))
            out.append(Damage(f"{table.tab}: column {column.name!r} twice", table.tab, 1,
                              column.name, (("twin column", wanted, column.name),)))
        rows = df.index.tolist()
        if not rows or table.player_input or table.append_only:
            continue
        for column in table.columns:
            if column.name in absent:
                continue
            for row in rows[:3]:
                bad: tuple[Any, ...] = ()
                if column.kind is Kind.WHOLE:
                    bad = ("ten", -3, "-3", 2.5, "1,2", True, "=A1", "\u00bd")
                elif column.kind is Kind.FLAG:
                    bad = ("maybe", 2, "si")
                elif column.kind is Kind.NAME:
                    bad = (None, "", "   ")
                for value in bad:
                    out.append(Damage(f"{table.tab} row {row} {column.name!r} = {value!r}",
                                      table.tab, int(row), column.name,
                                      (("set", wanted, int(row), column.name, value),)))
        if table.key and len(rows) >= 2:
            first = df.at[rows[0], table.key]
            out.append(Damage(f"{table.tab}: {first!r} twice", table.tab, int(rows[-1]),
                              table.key, (("set", wanted, int(rows[-1]), table.key,
                                           f" {str(first).upper()} "),), "duplicate name"))
    game = prepared.state.tables[GAME_TAB]
    settings = {values.fold(k): int(r) for r, k in zip(game.index, game["setting"].tolist())}
    first_turn = ruleset.first_turn  # a calendar with a setup turn starts at turn 0
    for key, bad in (("turn", ("zero", first_turn - 1, -1, 2.5, "", True)),
                     ("timezone", ("Mars/Olympus", "../etc", 5)),
                     ("deadline", ("soon", "2026-13-45", 1e12, -10**6, float("inf"))),
                     ("turn length (hours)", ("a day", -24, 2.5))):
        if key in settings:
            for value in bad:
                out.append(Damage(f"Game setting {key!r} = {value!r}", GAME_TAB, settings[key],
                                  "value", (("set", GAME_TAB, settings[key], "value", value),)))
    if "deadline" in settings and "turn length (hours)" in settings:
        # each alone is fine; together the next deadline is past year 9999
        out.append(Damage("Game: the next deadline is past year 9999", GAME_TAB,
                          settings["turn length (hours)"], "value",
                          (("set", GAME_TAB, settings["deadline"], "value", "9999-12-31 12:00"),
                           ("set", GAME_TAB, settings["turn length (hours)"], "value", 24))))
        out.append(Damage("Game: a turn of 10**12 hours", GAME_TAB,
                          settings["turn length (hours)"], "value",
                          (("set", GAME_TAB, settings["deadline"], "value", "2026-01-01 12:00"),
                           ("set", GAME_TAB, settings["turn length (hours)"], "value", 10**12))))
    return out


#: ruleset name -> its own damages (cross references between tabs) of a prepared game.
DAMAGES: dict[str, Callable[[Any], list[Damage]]] = {}


def all_damages(ruleset: Ruleset, raw: GameState) -> list[Damage]:
    out = generic_damages(ruleset, raw)
    own = DAMAGES.get(ruleset.name)
    if own is not None:
        out.extend(dataclasses.replace(d, group=d.group or "cross reference")
                   for d in own(prepare(ruleset, raw, SECRET)))
    return out


def refusal_problem(ruleset: Ruleset, raw: GameState, damage: Damage) -> str:
    """What is wrong with how the damaged game is refused ('' if it is refused right):
    resolve must raise StateError naming the damage's tab, row and column, and a run against
    a store must raise before saving anything."""
    state = damage_state(raw, damage)
    try:
        resolve(ruleset, state, seed=1, secret=SECRET)
    except StateError as exc:
        where = (damage.tab, damage.row, damage.column)
        found = next((p for p in exc.problems if (p.tab, p.row, p.column) == where), None)
        if found is None:
            return f"{damage.what}: refused, but not at {where}: {exc}"
        wanted = [f"tab '{damage.tab}'"] + ([f"row {damage.row}"] if damage.row else []) + \
            ([f"column '{damage.column}'"] if damage.column else [])
        if not all(w in str(found) for w in wanted) or wanted[0] not in str(exc):
            return f"{damage.what}: the message does not say {wanted}: {exc}"
    except Exception as exc:
        return f"{damage.what}: {type(exc).__name__} instead of a StateError: {exc}"
    else:
        return f"{damage.what}: resolved anyway"
    store = _MemoryStore(state)
    from sheetmaster.app.runs import Mode, run_turn

    try:
        run_turn(store, Mode.RESOLVE, force=True, secret=SECRET)
    except (StateError, StoreError):
        pass
    except Exception as exc:
        return f"{damage.what}: a run crashed with {type(exc).__name__}: {exc}"
    if store.saved:
        return f"{damage.what}: a run saved the damaged game"
    return ""


class _MemoryStore:
    """A store that only remembers whether it was asked to save."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.saved = 0

    def locked(self) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()

    def load(self) -> GameState:
        return self.state

    def save(self, ruleset: Ruleset, result: TurnResult) -> None:
        self.saved += 1


def damage_workbook(path: Path, damage: Damage) -> None:
    """Apply ``damage`` to a workbook file, as a GM editing it would."""
    import openpyxl

    book = openpyxl.load_workbook(path)

    def sheet(tab: str):
        for ws in book.worksheets:
            if ws.title == tab:
                return ws
        raise KeyError(tab)

    def column_of(ws, column: str) -> int:
        for cell in ws[1]:
            if values.fold(values.text(cell.value)) == values.fold(column):
                return cell.column
        raise KeyError(column)

    for op in damage.ops:
        ws = sheet(op[1])
        if op[0] == "drop tab":
            book.remove(ws)
        elif op[0] == "look-alike tab":
            book.copy_worksheet(ws).title = ws.title + "\u00a0"
        elif op[0] == "spell tab":
            ws.title = _spelled(ws.title)
        elif op[0] == "set":
            cell = ws.cell(row=op[2], column=column_of(ws, op[3]))
            cell.value = op[4]  # ws.cell(value=None) would leave the cell as it was
            if isinstance(op[4], str) and op[4].startswith("="):
                cell.data_type = "s"  # typed text, not a formula
        elif op[0] == "drop column":
            ws.delete_cols(column_of(ws, op[2]))
        elif op[0] == "rename column":
            ws.cell(row=1, column=column_of(ws, op[2]), value=op[3])
        elif op[0] == "twin column":
            source = column_of(ws, op[2])
            target = ws.max_column + 1
            for row in range(1, ws.max_row + 1):
                ws.cell(row=row, column=target, value=ws.cell(row=row, column=source).value)
            ws.cell(row=1, column=target, value=f" {op[2]}")
    book.save(path)


def _fits_a_workbook(damage: Damage) -> bool:
    """A cell value a workbook can hold as typed (not NaN or infinity)."""
    return all(op[0] != "set" or not isinstance(op[4], float) or math.isfinite(op[4])
               for op in damage.ops)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def workbook_refusal_problem(ruleset: Ruleset, raw: GameState, damage: Damage,
                             folder: Path) -> str:
    """Write the game to a workbook, damage it, run ``sheetmaster resolve`` on it: the command
    must fail with exit code 3 (the sheet is broken) naming the tab, row and column, and leave
    the file's bytes, and its folder, as they were: no backup, no report, no lock held ('' if
    so). (The empty lock file filelock keeps beside the workbook is no change: it locks
    nothing.)"""
    import io

    from sheetmaster.app.cli import main
    from sheetmaster.stores.xlsx_files import is_locked, lock_path
    from sheetmaster.stores.xlsx_layout import write_new_workbook

    path = folder / "game.xlsx"
    write_new_workbook(ruleset, path, raw)
    write_secret(secret_path(path), SECRET)  # the GM's, beside the workbook
    damage_workbook(path, damage)
    lock = lock_path(path).name
    digest, listing = _digest(path), sorted(p.name for p in folder.iterdir() if p.name != lock)
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["resolve", str(path), "--force", "--quiet"])
    if code != 3:
        return f"{damage.what}: sheetmaster resolve exited {code}, not 3"
    if _digest(path) != digest:
        return f"{damage.what}: the workbook's bytes changed"
    if sorted(p.name for p in folder.iterdir() if p.name != lock) != listing:
        return f"{damage.what}: files appeared beside the workbook"
    if is_locked(path):
        return f"{damage.what}: the workbook was left locked"
    # a StateError lists each problem at its tab, row and column; the few checks made before
    # the engine runs (no Game tab, no 'ruleset' setting) name the tab alone
    stated = "the game's sheet has problems" in err.getvalue() and damage.row is not None \
        and f"tab '{damage.tab}', row" in err.getvalue()
    where = f"tab '{damage.tab}', row {damage.row}, column '{damage.column}'" if stated else \
        f"'{damage.tab}'"
    if where not in err.getvalue():
        return f"{damage.what}: the error does not say {where}: {err.getvalue()}"
    return ""

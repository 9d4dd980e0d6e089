"""fake-sheets show and set: look at and type into the fake Sheets API's cells, as a GM or a
player would in the browser, so the whole nightly cycle can be tried offline.

Both talk to the fake through ``SHEETMASTER_SHEETS_ENDPOINT``, like every ``--sheet``
command, and refuse to run without it: they are for the fake, never a real Google Sheet.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sheetmaster.app.console import print_table
from sheetmaster.app.exits import Exit, UsageError
from sheetmaster.stores.base import StoreError
from sheetmaster.stores.gsheets_client import ENDPOINT_ENV, open_client


def fake_endpoint() -> str:
    endpoint = os.environ.get(ENDPOINT_ENV, "").strip()
    if not endpoint:
        raise UsageError(f"{ENDPOINT_ENV} is not set: set it to the address 'sheetmaster "
                         f"fake-sheets serve' printed (these commands edit the fake only)")
    return endpoint


@contextmanager
def fake_spreadsheet(sheet: str) -> Iterator[Any]:
    """The fake's spreadsheet through gspread; its failures said as store errors (exit 5)."""
    import gspread
    import requests

    endpoint = fake_endpoint()
    try:
        yield open_client().open_by_key(sheet)
    except gspread.exceptions.WorksheetNotFound as exc:
        raise StoreError(f"the spreadsheet {sheet} has no tab {exc.args[0]!r}") from None
    except gspread.exceptions.APIError as exc:
        raise StoreError(f"the fake Sheets API refused: {exc.error.get('message')}") from None
    except requests.ConnectionError:
        raise StoreError(f"nothing answers at {endpoint}: is 'sheetmaster fake-sheets serve' "
                         f"still running?") from None


def cmd_show(args: argparse.Namespace) -> int:
    from gspread.utils import rowcol_to_a1

    with fake_spreadsheet(args.sheet) as book:
        rows = book.worksheet(args.tab).get_all_values()
    width = max((len(r) for r in rows), default=0)
    header = rows[0] if rows else []
    columns = ["row", *(f"{rowcol_to_a1(1, c + 1)[:-1]} {header[c] if c < len(header) else ''}"
                        .strip() for c in range(width))]
    print_table(args.tab, columns, [[n, *row, *[""] * (width - len(row))]
                                    for n, row in enumerate(rows[1:], start=2)])
    return Exit.OK


def cmd_set(args: argparse.Namespace) -> int:
    from gspread.utils import a1_range_to_grid_range, rowcol_to_a1

    tab, _, cell = args.cell.rpartition("!")
    try:
        grid = a1_range_to_grid_range(cell)
        first_row, first_column = grid["startRowIndex"] + 1, grid["startColumnIndex"] + 1
    except (KeyError, ValueError, AttributeError):
        raise UsageError(f"{args.cell!r} is not a cell like 'Orders!A12' (a tab, '!', a "
                         f"column letter and a row number)") from None
    if not tab:
        raise UsageError(f"name the tab of {args.cell!r}, like 'Orders!A12'")
    last = rowcol_to_a1(first_row, first_column + len(args.values) - 1)
    span = cell if len(args.values) == 1 else f"{cell}:{last}"
    with fake_spreadsheet(args.sheet) as book:
        book.worksheet(tab.strip("'")).update([args.values], span, raw=False)
    print(f"set {tab}!{span} to {' | '.join(args.values)}")
    return Exit.OK


def register(actions: Any, common: argparse.ArgumentParser) -> None:
    """``show`` and ``set`` under ``fake-sheets`` (``actions``: its subparsers)."""
    p = actions.add_parser(
        "show", parents=[common], help="print a tab of a fake spreadsheet",
        description=f"Print a tab of a spreadsheet the fake holds, with its row numbers and "
                    f"column letters (what 'set' takes). {ENDPOINT_ENV} must name the fake.")
    p.add_argument("--sheet", required=True, metavar="SPREADSHEET_ID",
                   help="the spreadsheet id 'fake-sheets serve' printed")
    p.add_argument("tab", help="the tab to print, e.g. Game or Orders")
    p.set_defaults(run=cmd_show)

    p = actions.add_parser(
        "set", parents=[common], help="type values into a fake spreadsheet's cells",
        description=f"Type values into a spreadsheet the fake holds, as a person would in the "
                    f"browser: the first value goes to CELL, each next one to the cell on its "
                    f"right (one order row at a time). Typed text is read as Google Sheets "
                    f"reads it: numbers, dates, and a value starting with = is a formula. "
                    f"{ENDPOINT_ENV} must name the fake.")
    p.add_argument("--sheet", required=True, metavar="SPREADSHEET_ID",
                   help="the spreadsheet id 'fake-sheets serve' printed")
    p.add_argument("cell", help="the first cell, tab included: 'Game!B5', 'Orders!A20'")
    p.add_argument("values", nargs="+", metavar="VALUE", help="what to type, cell by cell")
    p.set_defaults(run=cmd_set)

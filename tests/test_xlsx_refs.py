"""sheetmaster.stores.xlsx_refs answers as openpyxl.utils.cell does, without importing openpyxl
(the workbook store reads and patches a workbook without it)."""

from __future__ import annotations

import itertools
from string import ascii_uppercase

import pytest
from openpyxl.utils import cell as openpyxl_cell

from sheetmaster.stores import xlsx_refs


def outcome(function, *args):
    """What a call returns, or the type and message of what it raises."""
    try:
        return function(*args)
    except Exception as exc:  # the error is part of the answer
        return type(exc), str(exc)


def test_every_column_letter_is_openpyxls():
    for column in range(-2, xlsx_refs.MAX_COLUMN + 3):
        assert outcome(xlsx_refs.get_column_letter, column) == \
            outcome(openpyxl_cell.get_column_letter, column), column


def test_every_column_name_is_openpyxls():
    names = ["".join(p) for n in range(1, 4) for p in itertools.product(ascii_uppercase, repeat=n)]
    odd = ["", "a", "zz", "Ab", "AAAA", "A1", "1", "$A", " A", "Ä", "ß", "ﬃ"]
    for name in [*names, *odd]:
        assert outcome(xlsx_refs.column_index_from_string, name) == \
            outcome(openpyxl_cell.column_index_from_string, name), name
    assert xlsx_refs.column_index_from_string("XFD") == 16384


@pytest.mark.parametrize("ref", [
    "A1", "A1:C3", "$A$1:$C$3", "AB12", "B2:A1", "A:C", "1:3", "a1:c3", "XFD1048576",
    "A1:", ":C3", "A:3", "1:C", "A1:C", "A", "1", "", "A1\n", "A1 ", "AAAA1", "ZZZ1",
    "A0", "A1:B2:C3", "A1,B2", "١:٣",
])
def test_ranges_are_openpyxls(ref):
    assert outcome(xlsx_refs.range_boundaries, ref) == \
        outcome(openpyxl_cell.range_boundaries, ref)


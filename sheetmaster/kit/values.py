"""Reading cell values the way a GM or a player typed them.

Each reader returns the value or raises :class:`BadValue` with a message fit for a result cell.
Cells arrive as whatever the store gives: str, int, float, bool, datetime or None.
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterable, Iterator, Mapping
from decimal import Decimal
from typing import Any

import numpy as np

_WHOLE = re.compile(r"[0-9]+")
#: the largest whole number sheetmaster reads (spreadsheets hold numbers as doubles, exact to
#: 2^53; larger ones are typos or attacks, e.g. 1e308 armies).
MAX_WHOLE = 10**15
#: what a spreadsheet shows for a formula that failed (Excel's, Google Sheets' #ERROR!, and
#: Excel 365's newer ones), as the stores give it: a workbook's error cell and a Google
#: Sheet's both read as this text.
SHEET_ERRORS = frozenset({"#DIV/0!", "#N/A", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#NULL!",
                          "#ERROR!", "#SPILL!", "#CALC!", "#GETTING_DATA", "#FIELD!",
                          "#BLOCKED!", "#CONNECT!", "#BUSY!", "#UNKNOWN!", "#PYTHON!"})
_YES = {"yes", "y", "true", "1", "x", "exiled", "in exile"}
_NO = {"no", "n", "false", "0", ""}
_LIST_SPLIT = re.compile(r"\s*[,;\n]\s*")


class BadValue(ValueError):
    """A cell holds something that cannot be read as the value it should be."""


def is_blank(value: Any) -> bool:
    if value is None or value == "":
        return True
    if type(value) is str:
        return not value.strip()
    return isinstance(value, float) and math.isnan(value)


def show(value: Any) -> str:
    """A cell value quoted for a message, e.g. ``'ten'``; long text is cut."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return repr(text) if isinstance(value, str) else text


def text(value: Any) -> str:
    """The cell as trimmed text ('' for blank). Whole floats lose their '.0'."""
    if type(value) is str:
        return value.strip()
    if is_blank(value):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def sheet_error(value: Any) -> str | None:
    """The spreadsheet error a cell holds ('#DIV/0!', '#N/A'...), or None."""
    if type(value) is not str or "#" not in value:
        return None
    code = value.strip().upper()
    return code if code in SHEET_ERRORS else None


def error_problem(code: str, wanted: str) -> str:
    """What to say of a cell holding the spreadsheet error ``code`` where ``wanted`` (e.g.
    'write a whole number') should be."""
    return f"holds the spreadsheet error {code} (a formula that failed); {wanted}"


def is_number_error(value: Any) -> bool:
    """NaN, an infinity, or a spreadsheet error such as #DIV/0!: not a number, and not blank."""
    if isinstance(value, float):
        return not math.isfinite(value)
    return sheet_error(value) is not None


def whole_number(value: Any, *, blank: int | None = None, strict: bool = False) -> int:
    """A whole number from 0 to MAX_WHOLE.

    ``strict`` is for player-typed amounts: only plain digits without leading zeros, so
    "007", "1,2", "+3" and "ten" are refused rather than guessed at.
    """
    kind = type(value)
    if kind is float and 0 <= value <= MAX_WHOLE and value.is_integer():
        return int(value)
    if kind is int and 0 <= value <= MAX_WHOLE:
        return value
    if is_number_error(value):
        code = sheet_error(value)
        raise BadValue(error_problem(code, "write a whole number") if code else
                       f"{show(value)} is not a number; write a whole number")
    if isinstance(value, float) and value > MAX_WHOLE:
        raise BadValue(f"{value:g} is too large (sheetmaster takes whole numbers up to "
                       f"{MAX_WHOLE:,})")
    if is_blank(value):
        if blank is None:
            raise BadValue("is blank; write a whole number")
        return blank
    if isinstance(value, bool):
        raise BadValue(f"{show(value)} is not a whole number")
    if isinstance(value, int):
        number = value
    elif isinstance(value, float):
        if not value.is_integer():
            raise BadValue(f"{show(value)} is not a whole number")
        number = int(value)
    elif isinstance(value, str):
        stripped = value.strip()
        if stripped.startswith("-") and _WHOLE.fullmatch(stripped[1:]):
            raise BadValue(f"{show(value)} is negative; write a whole number of 0 or more")
        if not _WHOLE.fullmatch(stripped):
            raise BadValue(f"{show(value)} is not a whole number (write digits only, like 7)")
        if strict and len(stripped) > 1 and stripped.startswith("0"):
            raise BadValue(f"{show(value)} has a leading zero; write the plain number, like 7")
        number = int(stripped)
    else:
        raise BadValue(f"{show(value)} is not a whole number")
    if number < 0:
        raise BadValue(f"{show(value)} is negative; write a whole number of 0 or more")
    if number > MAX_WHOLE:
        raise BadValue(f"{show(value)} is too large (sheetmaster takes whole numbers up to "
                       f"{MAX_WHOLE:,})")
    return number


def integer(value: Any, *, blank: int | None = None) -> int:
    """A whole number that may be negative: -3, 0, 12."""
    if type(value) is str and value.strip().startswith("-"):
        return -whole_number(value.strip()[1:], blank=None)
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0:
        return -whole_number(-value)
    return whole_number(value, blank=blank)


_DECIMAL = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)")


def decimal(value: Any, *, blank: int | None = None) -> Decimal:
    """An exact number, e.g. 9.75 or -0.25, as a :class:`~decimal.Decimal`.

    A float cell is read through its shortest spelling, so 9.75 is exactly 9.75.
    """
    if is_blank(value):
        if blank is None:
            raise BadValue("is blank; write a number")
        return Decimal(blank)
    _refuse_error(value, "write a number")
    if isinstance(value, bool):
        raise BadValue(f"{show(value)} is not a number")
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise BadValue(f"{show(value)} is not a number")
        return Decimal(repr(value))
    if isinstance(value, Decimal):
        return value
    stripped = text(value)
    if not _DECIMAL.fullmatch(stripped):
        raise BadValue(f"{show(value)} is not a number (write digits, like 9.75)")
    return Decimal(stripped)


_AMOUNT = re.compile(r"(0|[1-9][0-9]*)(\.[0-9]+)?")


def exact_amount(value: Any) -> Decimal:
    """A player-typed amount above 0 that may have a fraction (9.75), exactly.

    Strict like :func:`whole_number` with ``strict``: plain digits, one decimal point, no sign,
    no thousands separator, no exponent, no leading zero ("1,2", "+3", "1e3", "007" refused).
    """
    if isinstance(value, bool) or is_blank(value):
        raise BadValue(f"{show(value)} is not an amount (write digits, like 9.75)")
    _refuse_error(value, "write an amount (digits, like 9.75)")
    if isinstance(value, int):
        number = Decimal(value)
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise BadValue(f"{show(value)} is not an amount (write digits, like 9.75)")
        number = Decimal(repr(value))
    elif isinstance(value, str):
        stripped = value.strip()
        if stripped.startswith("-") and _AMOUNT.fullmatch(stripped[1:]):
            raise BadValue(f"{show(value)} is negative; write an amount above 0")
        if not _AMOUNT.fullmatch(stripped):
            raise BadValue(f"{show(value)} is not an amount (write digits, like 9.75)")
        number = Decimal(stripped)
    else:
        raise BadValue(f"{show(value)} is not an amount (write digits, like 9.75)")
    if number < 0:
        raise BadValue(f"{show(value)} is negative; write an amount above 0")
    if number == 0:
        raise BadValue("must be more than 0")
    return number


def _refuse_error(value: Any, wanted: str) -> None:
    """BadValue naming the spreadsheet error the cell holds, if it holds one."""
    code = sheet_error(value)
    if code is not None:
        raise BadValue(error_problem(code, wanted))


def number_cell(value: Decimal) -> int | float | str:
    """A Decimal as a sheet cell: a whole number, a float when that is exact, else text."""
    if value == value.to_integral_value():
        return int(value)
    as_float = float(value)
    return as_float if Decimal(repr(as_float)) == value else str(value)


def or_list(names: Iterable[str]) -> str:
    """'A', 'A or B', 'A, B or C'."""
    names = list(names)
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


#: words ending in a 'ch' said as 'k', which take a plain 's' ('techs', not 'teches').
_HARD_CH = ("tech", "epoch", "monarch", "patriarch", "stomach")


def plural_word(noun: str) -> str:
    """'territory' -> 'territories', 'province' -> 'provinces', 'march' -> 'marches',
    'tech' -> 'techs'."""
    if noun.endswith("y") and noun[-2:-1] not in "aeiou":
        return noun[:-1] + "ies"
    if noun.casefold().endswith(_HARD_CH):
        return noun + "s"
    return noun + ("es" if noun.endswith(("s", "x", "ch", "sh")) else "s")


class Numbering:
    """Row ids 'T1', 'T2'... (a prefix and a number): each new one is one more than the highest
    number the rows have, those read once and then counted on, so a turn adding thousands of
    rows stays linear (issue 26.1)."""

    __slots__ = ("prefix", "last")

    def __init__(self, prefix: str) -> None:
        self.prefix, self.last = prefix, None

    def next(self, ids: Iterable[str]) -> str:
        """The next id; ``ids`` (the rows' own, lazily) are read the first time only."""
        if self.last is None:
            digits = (i[len(self.prefix):] for i in ids)
            self.last = max((int(d) for d in digits if d.isdigit()), default=0)
        self.last += 1
        return f"{self.prefix}{self.last}"


def plural(count: int, word: str, many: str | None = None) -> str:
    """A count and its noun: '1 army', '3 armies', '0 armies'; ``many`` where the plural is
    not regular ('1 die', '2 dice')."""
    return f"{count} {word if count == 1 else many or plural_word(word)}"


def yes_no(value: Any) -> bool:
    """yes/no, true/false, 1/0, x or blank (= no)."""
    if isinstance(value, bool):
        return value
    if is_blank(value):
        return False
    _refuse_error(value, "write yes or no")
    word = text(value).casefold()
    if word in _YES:
        return True
    if word in _NO:
        return False
    raise BadValue(f"{show(value)} is not yes or no")


def name_list(value: Any) -> list[str]:
    """Names separated by commas, semicolons or line breaks; blanks dropped."""
    raw = text(value)
    if not raw:
        return []
    if ";" in raw or "\n" in raw:
        return [part for part in _LIST_SPLIT.split(raw) if part]
    return [part for part in (p.strip() for p in raw.split(",")) if part]


def fold(name: str) -> str:
    """The form names are compared in: case and surrounding spaces do not matter."""
    return " ".join(name.split()).casefold()


#: every white space character but the plain space (what ``str.split()`` splits on).
OTHER_SPACES = ("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004"
                "\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


def fold_all(names: list[str]) -> list[str]:
    """:func:`fold` of each name; a million names of single-spaced words in a few C passes.

    Joined by NUL (no white space), names fold by their casefold alone when no name starts or
    ends with a space, none holds two spaces in a row, and the only white space is the plain
    space. (A text without a character as wide as a search for it is ruled out at once, so
    most of these searches cost nothing.)
    """
    joined = "\x00".join(names)
    if joined.count("\x00") != len(names) - 1 or joined[:1] == " " or joined[-1:] == " " or \
            "  " in joined or " \x00" in joined or "\x00 " in joined or \
            any(space in joined for space in OTHER_SPACES):
        return list(map(fold, names))
    return joined.casefold().split("\x00")


def all_distinct(texts: list[str]) -> bool:
    """Whether no two of these texts are equal. Equal texts hash alike, so when no two
    hashes meet the answer is yes at once: a sort of a million numbers costs less than a set
    of a million texts. Only if some do is a set made."""
    hashes = np.fromiter(map(hash, texts), dtype=np.int64, count=len(texts))
    hashes.sort()
    return not (hashes[1:] == hashes[:-1]).any() or len(set(texts)) == len(texts)


class _FoldedIndex:
    """Finds the first name whose spelling (a key: the name or an alias) folds to a given
    folded text. It keeps a hash per key, sorted, rather than a folded copy of every key: a
    million names cost 16 MB instead of 100."""

    __slots__ = ("_keys", "_names", "_order", "_hashes")

    def __init__(self, keys: list[str], names: list[str]) -> None:
        self._keys, self._names = keys, names
        hashes = np.fromiter(map(hash, fold_all(keys)), dtype=np.int64, count=len(keys))
        # Equal hashes stay in key order: the first key that folds alike is found first.
        self._order = np.argsort(hashes, kind="stable")
        self._hashes = hashes[self._order]

    def get(self, folded: str) -> str | None:
        h = hash(folded)
        start = int(np.searchsorted(self._hashes, h, "left"))
        end = int(np.searchsorted(self._hashes, h, "right"))
        for i in self._order[start:end].tolist():
            if fold(self._keys[i]) == folded:
                return self._names[i]
        return None


class Names:
    """Finds a name as the game writes it, from any spelling that folds the same.

    Exact spellings are found without folding; the folded index is only built on the first
    miss, which matters when a million orders name a million territories. ``aliases`` are other
    spellings (alias -> name) that find a name, e.g. "Bowmen" for "Archers"; they are not
    iterated.
    """

    __slots__ = ("_exact", "_folded", "_count")

    def __init__(self, names: Iterable[str], aliases: Mapping[str, str] | None = None) -> None:
        names = names if isinstance(names, (list, tuple)) else list(names)
        self._exact: dict[str, str] = dict(zip(names, names))
        self._count = len(self._exact)
        for alias, name in (aliases or {}).items():
            self._exact.setdefault(alias, name)
        self._folded: _FoldedIndex | None = None

    def get(self, text: str) -> str | None:
        found = self._exact.get(text)
        if found is None:
            if self._folded is None:
                self._folded = _FoldedIndex(list(self._exact), list(self._exact.values()))
            found = self._folded.get(fold(text))
        return found

    def exact(self, text: str) -> str | None:
        """The name if ``text`` is spelt exactly as the game writes it."""
        return self._exact.get(text)

    @property
    def exact_get(self):
        """:meth:`exact` without the method call, for loops over a million cells."""
        return self._exact.get

    @property
    def exact_item(self):
        """:meth:`exact` raising KeyError for a name not spelt as the game writes it: a loop
        over a million names needs no check of each answer, only one for its first miss."""
        return self._exact.__getitem__

    def __contains__(self, text: str) -> bool:
        return self.get(text) is not None

    def __iter__(self) -> Iterator[str]:
        return itertools.islice(self._exact, self._count)

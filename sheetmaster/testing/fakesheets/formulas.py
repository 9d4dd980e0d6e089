"""The formula evaluator: references, operators and the built-in functions.

Supported: arithmetic, ``&``, comparisons, cell/range references incl. other tabs and named
ranges, SUM AVERAGE MIN MAX COUNT COUNTA PRODUCT ABS ROUND INT MOD IF IFERROR AND OR NOT
CONCATENATE CONCAT LEN UPPER LOWER TRIM. Anything else evaluates to ``#NAME?``.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from .a1 import _parse_cells, _split_a1
from .formula_parser import _parse_formula
from .model import _Book, _Sheet
from .values import _Err, _format


class _Raise(Exception):
    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


class _RangeRef(NamedTuple):
    sheet: _Sheet
    r0: int
    r1: int
    c0: int
    c1: int


class _Evaluator:
    """Computes effective values, with a per-request cache and cycle detection."""

    def __init__(self, book: _Book):
        self.book = book
        self.cache: dict[tuple[int, int, int], Any] = {}
        self.active: set[tuple[int, int, int]] = set()

    def value(self, sheet: _Sheet, r: int, c: int) -> Any:
        cell = sheet.cells.get((r, c))
        if cell is None or cell.value is None:
            return None
        if not cell.formula:
            return cell.value
        key = (sheet.id, r, c)
        if key in self.cache:
            return self.cache[key]
        if key in self.active:
            return _Err("#REF!")
        self.active.add(key)
        try:
            result = self._formula(sheet, cell.value[1:])
        finally:
            self.active.discard(key)
        self.cache[key] = result
        return result

    def _formula(self, sheet: _Sheet, text: str) -> Any:
        tree = _parse_formula(text)
        try:
            result = self._scalar(tree, sheet)
        except _Raise as err:
            return _Err(err.code)
        except (OverflowError, ValueError):
            return _Err("#NUM!")
        if result is None:
            return ""
        return result

    # -- evaluation ---------------------------------------------------------------------

    def _ref(self, text: str, sheet: _Sheet) -> _RangeRef:
        parts = _split_a1(text)
        if parts is None:
            raise _Raise("#NAME?")
        title, cells = parts
        target = sheet
        if title is not None:
            found = self.book.sheet_by_title(title)
            if found is None:
                raise _Raise("#REF!")
            target = found
        box = _parse_cells(cells or "")
        if box is None:
            named = self.book.named_range(cells or "")
            if named is None:
                raise _Raise("#NAME?")
            target, box = self.book._named_box(named)
        r1 = target.rows if box.r1 is None else min(box.r1, target.rows)
        c1 = target.cols if box.c1 is None else min(box.c1, target.cols)
        if box.r0 >= target.rows or box.c0 >= target.cols:
            raise _Raise("#REF!")
        return _RangeRef(target, box.r0, r1, box.c0, c1)

    def _eval(self, node: tuple[Any, ...], sheet: _Sheet) -> Any:
        kind = node[0]
        if kind in ("num", "str", "bool"):
            return node[1]
        if kind == "error":
            raise _Raise(node[1])
        if kind == "ref":
            return self._ref(node[1], sheet)
        if kind == "neg":
            return -_to_num(self._scalar(node[1], sheet))
        if kind == "pct":
            return _to_num(self._scalar(node[1], sheet)) / 100
        if kind == "bin":
            return _binary(node[1], self._scalar(node[2], sheet), self._scalar(node[3], sheet))
        if kind == "func":
            return self._call(node[1], node[2], sheet)
        raise _Raise("#ERROR!")  # pragma: no cover

    def _scalar(self, node: tuple[Any, ...], sheet: _Sheet) -> Any:
        value = self._eval(node, sheet)
        if isinstance(value, _RangeRef):
            if value.r1 - value.r0 != 1 or value.c1 - value.c0 != 1:
                raise _Raise("#VALUE!")
            value = self.value(value.sheet, value.r0, value.c0)
        if isinstance(value, _Err):
            raise _Raise(str(value))
        return value

    def _cells_of(self, ref: _RangeRef) -> list[Any]:
        out = []
        for (r, c) in sorted(ref.sheet.cells):
            if ref.r0 <= r < ref.r1 and ref.c0 <= c < ref.c1:
                value = self.value(ref.sheet, r, c)
                if isinstance(value, _Err):
                    raise _Raise(str(value))
                if value is not None and value != "":
                    out.append(value)
        return out

    def _numbers(self, args: tuple[Any, ...], sheet: _Sheet) -> list[float]:
        nums: list[float] = []
        for arg in args:
            value = self._eval(arg, sheet)
            if isinstance(value, _RangeRef):
                nums.extend(
                    float(v) for v in self._cells_of(value)
                    if isinstance(v, (int, float)) and not isinstance(v, bool)
                )
            else:
                if isinstance(value, _Err):
                    raise _Raise(str(value))
                nums.append(_to_num(value))
        return nums

    def _call(self, name: str, args: tuple[Any, ...], sheet: _Sheet) -> Any:
        if name == "IF":
            if not 1 < len(args) < 4:
                raise _Raise("#N/A")
            if _to_bool(self._scalar(args[0], sheet)):
                return self._scalar(args[1], sheet)
            return self._scalar(args[2], sheet) if len(args) == 3 else False
        if name == "IFERROR":
            try:
                return self._scalar(args[0], sheet)
            except _Raise:
                return self._scalar(args[1], sheet) if len(args) > 1 else ""
        if name in ("SUM", "AVERAGE", "MIN", "MAX", "COUNT", "PRODUCT"):
            nums = self._numbers(args, sheet)
            if name == "SUM":
                return float(math.fsum(nums))
            if name == "COUNT":
                return float(len(nums))
            if name == "PRODUCT":
                return float(math.prod(nums)) if nums else 0.0
            if name == "AVERAGE":
                if not nums:
                    raise _Raise("#DIV/0!")
                return math.fsum(nums) / len(nums)
            if not nums:
                return 0.0
            return min(nums) if name == "MIN" else max(nums)
        if name == "COUNTA":
            count = 0
            for arg in args:
                value = self._eval(arg, sheet)
                count += len(self._cells_of(value)) if isinstance(value, _RangeRef) else 1
            return float(count)
        values = [self._scalar(a, sheet) for a in args]
        return _simple_function(name, values)


def _simple_function(name: str, values: list[Any]) -> Any:
    def arity(low: int, high: int) -> None:
        if not low <= len(values) <= high:
            raise _Raise("#N/A")

    if name in ("AND", "OR"):
        arity(1, 255)
        flags = [_to_bool(v) for v in values]
        return all(flags) if name == "AND" else any(flags)
    if name == "NOT":
        arity(1, 1)
        return not _to_bool(values[0])
    if name in ("CONCATENATE", "CONCAT"):
        return "".join(_to_str(v) for v in values)
    if name in ("LEN", "UPPER", "LOWER", "TRIM"):
        arity(1, 1)
        text = _to_str(values[0])
        if name == "LEN":
            return float(len(text))
        if name == "TRIM":
            return " ".join(text.split())
        return text.upper() if name == "UPPER" else text.lower()
    if name in ("ABS", "INT"):
        arity(1, 1)
        number = _to_num(values[0])
        return abs(number) if name == "ABS" else float(math.floor(number))
    if name == "ROUND":
        arity(1, 2)
        number = _to_num(values[0])
        places = int(_to_num(values[1])) if len(values) > 1 else 0
        scale = 10.0**places
        return math.floor(abs(number) * scale + 0.5) / scale * (1 if number >= 0 else -1)
    if name == "MOD":
        arity(2, 2)
        divisor = _to_num(values[1])
        if divisor == 0:
            raise _Raise("#DIV/0!")
        return _to_num(values[0]) % divisor
    raise _Raise("#NAME?")


def _to_num(value: Any) -> float:
    if value is None:
        return 0.0
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return float(value)
    text = str(value).strip()
    if text == "":
        return 0.0
    try:
        return float(text)
    except ValueError:
        raise _Raise("#VALUE!") from None


def _to_str(value: Any) -> str:
    return _format(value)


def _to_bool(value: Any) -> bool:
    if isinstance(value, str):
        if value.upper() in ("TRUE", "FALSE"):
            return value.upper() == "TRUE"
        if value == "":
            return False
        raise _Raise("#VALUE!")
    return bool(_to_num(value))


def _sort_key(value: Any) -> tuple[int, Any]:
    if value is None or value == "":
        return (3, 0)
    if isinstance(value, bool):
        return (2, value)
    if isinstance(value, (int, float)):
        return (0, float(value))
    return (1, str(value).casefold())


def _binary(op: str, a: Any, b: Any) -> Any:
    if op == "&":
        return _to_str(a) + _to_str(b)
    if op in ("=", "<>", "<", ">", "<=", ">="):
        ka, kb = _sort_key(a), _sort_key(b)
        if a is None or a == "":
            ka = _sort_key(0.0 if isinstance(b, (int, float)) else "")
        if b is None or b == "":
            kb = _sort_key(0.0 if isinstance(a, (int, float)) else "")
        return {
            "=": ka == kb, "<>": ka != kb, "<": ka < kb,
            ">": ka > kb, "<=": ka <= kb, ">=": ka >= kb,
        }[op]
    x, y = _to_num(a), _to_num(b)
    if op == "+":
        return x + y
    if op == "-":
        return x - y
    if op == "*":
        return x * y
    if op == "/":
        if y == 0:
            raise _Raise("#DIV/0!")
        return x / y
    if op == "^":
        return float(x**y)
    raise _Raise("#ERROR!")  # pragma: no cover

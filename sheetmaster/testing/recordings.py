"""Every example game, turn by turn, cell by cell: a recording to hold a refactoring to.

``record(name)`` runs what a GM runs (``sheetmaster new NAME --example``, then ``resolve``
eight times, the example's public dice secret beside it) and returns every cell of every tab
after each turn as text. ``tests/recordings/NAME.jsonl`` holds the recording made before a
change; ``tests/test_example_recordings.py`` compares the game as it plays now, cell by cell.

    python -m sheetmaster.testing.recordings tests/recordings   # record again, on purpose
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import openpyxl

TURNS = 8


def cells(path: Path) -> Iterator[tuple[str, list[str]]]:
    """Every tab's rows, each cell as text (a number by its repr, a blank as '')."""
    book = openpyxl.load_workbook(path, read_only=True)
    try:
        for sheet in book.worksheets:
            for row in sheet.iter_rows(values_only=True):
                yield sheet.title, ["" if v is None else repr(v) for v in row]
    finally:
        book.close()


def turns_of(name: str, turns: int = TURNS) -> Iterator[dict[tuple[str, int], list[str]]]:
    """The new example (turn 0), then the game after each resolved turn: every row's cells
    by (tab, row number)."""
    from sheetmaster.app.cli import main

    with tempfile.TemporaryDirectory() as folder, contextlib.redirect_stdout(io.StringIO()), \
            contextlib.redirect_stderr(io.StringIO()):
        path = Path(folder) / "game.xlsx"
        if main(["new", name, str(path), "--example", "-q"]) != 0:
            raise RuntimeError(f"sheetmaster new {name} --example failed")
        for turn in range(turns + 1):
            if turn and main(["resolve", str(path), "--force", "-q"]) != 0:
                raise RuntimeError(f"{name}: resolve {turn} failed")
            numbers: dict[str, int] = {}
            rows = {}
            for tab, row in cells(path):
                numbers[tab] = numbers.get(tab, 0) + 1
                rows[tab, numbers[tab]] = row
            yield rows


def record(name: str, turns: int = TURNS) -> list[dict]:
    """``{"turn", "tab", "row", "cells"}`` for every row of every tab of the new example
    (turn 0), then, for each resolved turn, the rows that changed (``cells`` None: a row
    gone)."""
    lines: list[dict] = []
    before: dict[tuple[str, int], list[str]] = {}
    for turn, rows in enumerate(turns_of(name, turns)):
        for (tab, number), row in rows.items():
            if before.get((tab, number)) != row:
                lines.append({"turn": turn, "tab": tab, "row": number, "cells": row})
        lines += [{"turn": turn, "tab": tab, "row": number, "cells": None}
                  for tab, number in before.keys() - rows.keys()]
        before = rows
    return lines


def replay(lines: list[dict]) -> Iterator[dict[tuple[str, int], list[str]]]:
    """The game after each turn, from a recording: what :func:`turns_of` gave."""
    rows: dict[tuple[str, int], list[str]] = {}
    for turn in sorted({line["turn"] for line in lines}):
        for line in (x for x in lines if x["turn"] == turn):
            if line["cells"] is None:
                rows.pop((line["tab"], line["row"]), None)
            else:
                rows[line["tab"], line["row"]] = line["cells"]
        yield dict(rows)


def write(folder: Path, name: str) -> Path:
    path = folder / f"{name}.jsonl"
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n"
                            for line in record(name)), encoding="utf-8")
    return path


def read(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def examples() -> list[str]:
    from sheetmaster import rules

    return sorted(n for n, r in rules.available().items() if r.example is not None)


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "tests/recordings")
    out.mkdir(parents=True, exist_ok=True)
    for example in examples():
        print(write(out, example))

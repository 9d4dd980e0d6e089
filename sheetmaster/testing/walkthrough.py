"""Follow a README's walk-through step by step, as a GM would (issue 29, "How we will know").

A ruleset's README section "Starting a game already under way" is written for a GM: commands
in backticks, and tables the GM types into a tab or finds there afterwards. This module reads
that section and carries it out on a temporary directory, so the README cannot drift from what
sheetmaster does. The section's steps, in the order they appear:

- a line holding a command in backticks, ``sheetmaster ...``, runs it (it must exit 0, or the
  code named right after it as "(exits N)");
- a paragraph ending with a colon and followed by a markdown table, which says "the **Tab**
  tab, type", types the table's rows into that tab: a row whose first cell matches a row
  already in the tab before this table (a Game or settings key, say) fills that row's cells;
  any other row goes in the tab's first empty row (so one table may type several rows with
  the same first cell, as orders of one player);
- "the **Tab** tab reads" instead checks the tab: its filled rows, in order, show exactly the
  table's rows in the table's columns;
- "the **Tab** tab has these rows" checks that the table's rows appear in the tab, in order,
  among others (for the Log).

Where a paragraph says this of several tabs, the last one is meant.

Cells are typed as a GM types them in a spreadsheet: a whole number becomes a number, an empty
cell stays empty, anything else is text.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import openpyxl

SECTION_TITLE = "Starting a game already under way"
COMMAND = re.compile(r"`(sheetmaster [^`]+)`(?:\s*\(exits (\d+)\))?")
TAB_STEP = re.compile(r"\*\*(?P<tab>[^*]+)\*\* tab,? (?P<kind>type|reads|has these rows)\b")
NUMBER = re.compile(r"-?\d+")


@dataclass
class Step:
    """One thing the walk-through tells the GM to do or to look at."""

    kind: str  # "run", "type", "reads" or "has these rows"
    line: int  # where it is in the README, for messages
    command: list[str] = field(default_factory=list)
    exit_code: int = 0
    tab: str = ""
    header: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)


def section(readme: str, title: str = SECTION_TITLE) -> tuple[int, list[str]]:
    """The section's first line number (1-based) and its lines, up to the next ``## `` heading."""
    lines = readme.splitlines()
    for number, line in enumerate(lines):
        if line.startswith("## ") and line[3:].strip() == title:
            later = range(number + 1, len(lines))
            end = next((i for i in later if lines[i].startswith("## ")), len(lines))
            return number + 1, lines[number + 1 : end]
    raise LookupError(f"the README has no '## {title}' section")


def _cells(line: str) -> list[str]:
    inner = line.strip().strip("|")
    parts = re.split(r"(?<!\\)\|", inner)
    return [part.strip().replace("\\|", "|").strip("`") for part in parts]


def _table(lines: list[str], start: int) -> tuple[list[str], list[list[str]], int]:
    """The markdown table beginning at or after ``start``: header, rows, and the line after it."""
    i = start
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines) or not lines[i].lstrip().startswith("|"):
        raise ValueError(f"a table was expected at line {i + 1} of the section")
    header = _cells(lines[i])
    rows: list[list[str]] = []
    i += 2  # the header and its |---| line
    while i < len(lines) and lines[i].lstrip().startswith("|"):
        rows.append(_cells(lines[i]))
        i += 1
    return header, rows, i


def steps(readme: str) -> Iterator[Step]:
    """The walk-through's steps, in order."""
    first, lines = section(readme)
    paragraph: list[str] = []  # the last paragraph, kept over blank lines until the next one
    ended = False
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        for match in COMMAND.finditer(line):
            yield Step("run", first + i + 1, command=shlex.split(match[1])[1:],
                       exit_code=int(match[2] or 0))
        if line.startswith("|"):
            tab_steps = list(TAB_STEP.finditer(" ".join(paragraph)))
            header, rows, after = _table(lines, i)
            if tab_steps and paragraph[-1].endswith(":"):
                kind, tab = tab_steps[-1]["kind"], tab_steps[-1]["tab"]
                yield Step(kind, first + i + 1, tab=tab, header=header, rows=rows)
            paragraph, i = [], after
            continue
        if line:
            paragraph = [line] if ended else [*paragraph, line]
        ended = not line
        i += 1


def typed(text: str) -> object:
    """A cell as a GM types it: whole numbers are numbers, empty is empty, the rest is text."""
    if not text:
        return None
    return int(text) if NUMBER.fullmatch(text) else text


def shown(value: object) -> str:
    """A cell as the README shows it."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _header(sheet) -> dict[str, int]:
    return {str(c.value).strip(): c.column for c in sheet[1] if c.value is not None}


def _filled_rows(sheet) -> Iterator[int]:
    for row in range(2, sheet.max_row + 1):
        if any(c.value not in (None, "") for c in sheet[row]):
            yield row


def type_rows(book: Path, step: Step) -> None:
    """Type a step's table into its tab, as :func:`steps` describes."""
    workbook = openpyxl.load_workbook(book)
    sheet = workbook[step.tab]
    columns = _header(sheet)
    missing = [name for name in step.header if name not in columns]
    if missing:
        raise AssertionError(f"README line {step.line}: the {step.tab} tab has no column {missing}")
    key = columns[step.header[0]]
    filled = list(_filled_rows(sheet))
    before = list(filled)  # the rows a row of this table may fill: not the ones it typed
    for values in step.rows:
        target = next((r for r in before if shown(sheet.cell(r, key).value) == values[0]), None)
        if target is None:
            target = max(filled, default=1) + 1
            filled.append(target)
        for name, text in zip(step.header, values):
            sheet.cell(target, columns[name]).value = typed(text)
    workbook.save(book)


def tab_rows(book: Path, tab: str, header: list[str], line: int) -> list[list[str]]:
    """The tab's filled rows shown in the given columns."""
    sheet = openpyxl.load_workbook(book, read_only=False)[tab]
    columns = _header(sheet)
    missing = [name for name in header if name not in columns]
    if missing:
        raise AssertionError(f"README line {line}: the {tab} tab has no column {missing}")
    return [[shown(sheet.cell(r, columns[n]).value) for n in header] for r in _filled_rows(sheet)]


def check_rows(book: Path, step: Step) -> None:
    """Check a ``reads:`` or ``has these rows:`` step against the workbook."""
    actual = tab_rows(book, step.tab, step.header, step.line)
    if step.kind == "reads":
        assert actual == step.rows, _difference(step, actual)
        return
    remaining = iter(actual)
    for row in step.rows:
        assert any(row == other for other in remaining), _difference(step, actual)


def _difference(step: Step, actual: list[list[str]]) -> str:
    shown_rows = "\n".join(" | ".join(row) for row in actual)
    return f"README line {step.line}: the {step.tab} tab {step.kind}:\n{shown_rows}"


def follow(readme: str, directory: Path, run: Callable[[list[str]], int]) -> list[Step]:
    """Carry out the walk-through in ``directory`` (file names in it are relative to it)."""
    done: list[Step] = []
    book: Path | None = None
    for step in steps(readme):
        if step.kind == "run":
            code = run(step.command)
            assert code == step.exit_code, (
                f"README line {step.line}: sheetmaster {shlex.join(step.command)} exited {code}")
            book = next((directory / a for a in step.command if a.endswith(".xlsx")), book)
        elif book is None:
            raise AssertionError(f"README line {step.line}: a tab step before any workbook")
        elif step.kind == "type":
            type_rows(book, step)
        else:
            check_rows(book, step)
        done.append(step)
    return done

"""A markdown turn report, composed for Discord: what Discord shows, within its limits.

Discord shows headings, lists, bold and italics, but not tables: a report's tables (the
orders) become plain lines, ``- row 2: invest military -> applied: invested 12``. The
report's summary ("At a glance", if it has one) and the turn's counts come first, then each
section (the whole game's lines, each player's), whole sections packed into messages of at
most 2,000 characters; a section too long for one message goes on in the next ones, under
"(continued)". The report's title is left out (the channel's first message names the turn),
and its rules and dice lines come last.

Every section reaches the channel: when a report would take more than ``max_messages``
messages, each section is shortened alike (its first lines, then how many more there are)
until they fit, and :attr:`Composed.cut` says the whole report should go along as a file.

The report is sheetmaster's own markdown, in which nothing a player typed can start a line
or hold an unescaped ``|`` (:func:`sheetmaster.app.report.md`): a line starting with ``## ``
is a section, with ``|`` a table row, and a cell ends at a ``|`` with a space or the line's
end beside it. Mentions are made inert (:func:`~.messages.inert`) in every message.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sheetmaster.app.report import ELSEWHERE, ELSEWHERE_CHECKED, GLANCE

from .messages import MAX_CONTENT, inert, split_message

#: the messages a report may take in a channel, at most, before its sections are shortened.
MAX_MESSAGES = 25
#: a shortened section keeps at least its heading and the line saying what was left out.
MIN_SECTION = 160
#: a cell delimiter: a '|' at the line's start or after a space, before a space or the end
#: (an escaped one, '\|', has a backslash before it).
_CELL = re.compile(r"(?:^|(?<= ))\|(?= |$)")
_FOOTER = re.compile(r"^_.+_$")
_BOLD = re.compile(r"^\*\*.+\*\*$")
ORDERS_HEADER = ["row", "order", "result", "reason"]


@dataclass
class Section:
    """A ``## `` heading (empty for the report's opening lines) and its lines."""

    heading: str
    lines: list[str] = field(default_factory=list)

    def text(self) -> str:
        body = re.sub(r"\n{3,}", "\n\n", "\n".join(self.lines)).strip("\n")
        head = f"## {self.heading}" if self.heading else ""
        return "\n\n".join(part for part in (head, body) if part)


@dataclass
class Composed:
    """A report's Discord messages; ``cut``: its sections were shortened to fit, so the
    whole report should be attached."""

    messages: list[str]
    cut: bool = False


def compose(report: str, *, max_messages: int | None = None,
            limit: int = MAX_CONTENT) -> Composed:
    """The report as Discord messages: summary first, sections packed, tables as lines
    (``max_messages``: default :data:`MAX_MESSAGES`)."""
    most = max_messages or MAX_MESSAGES
    opening, sections, closing = parse(report)
    ordered = [s for s in sections if s.heading == GLANCE] + \
        [s for s in sections if s.heading != GLANCE]
    counts = [line for line in closing.lines if _FOOTER.match(line)]
    if ordered and ordered[0].heading == GLANCE:
        ordered[0].lines += ["", *counts]  # the counts belong to the summary
    elif counts:
        ordered.insert(0, Section("", counts))  # or are it
    closing = Section("", [line for line in closing.lines if line not in counts])
    parts = [*ordered, Section("", [*opening.lines, "", *closing.lines])]
    room = most * (limit - 100)
    fair = max(MIN_SECTION, room // len(parts))
    size = sum(len(p.text()) + 2 for p in parts)
    budget: int | None = None if size <= most * limit else fair  # surely too long: cut now
    while True:
        messages = pack([shorten(p, budget) if budget else p for p in parts], limit)
        if len(messages) <= most or budget == MIN_SECTION:
            return Composed(messages, cut=budget is not None)
        budget = fair if budget is None else max(MIN_SECTION, min(fair, budget * 3 // 4))


def parse(report: str) -> tuple[Section, list[Section], Section]:
    """The report's opening lines (its title left out), its sections, and its closing lines
    (the line that counts orders and dice, and the one that says where the rest is), each
    table as plain lines."""
    lines = report.rstrip("\n").split("\n")
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    closing: list[str] = []
    while lines and (not lines[-1].strip() or _FOOTER.match(lines[-1]) or
                     lines[-1] in (ELSEWHERE, ELSEWHERE_CHECKED)):
        line = lines.pop()
        if line.strip():
            closing.insert(0, line)
    opening = Section("")
    sections: list[Section] = []
    for line in _plain_tables(lines):
        if line.startswith("## "):
            sections.append(Section(line[3:].strip()))
        else:
            (sections[-1] if sections else opening).lines.append(line)
    return opening, sections, Section("", _spaced(closing))


def _spaced(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        out += ["", line] if out else [line]
    return out


def _plain_tables(lines: list[str]) -> list[str]:
    """The lines with each table (header, rule, rows) as one plain line a row."""
    out: list[str] = []
    header: list[str] | None = None
    for line in lines:
        if not line.startswith("|"):
            header = None
            out.append(line)
            continue
        cells = cells_of(line)
        if header is None:
            header = cells
        elif not all(set(c) <= set("-: ") for c in cells):
            out.append(row_line(header, cells))
    return out


def cells_of(line: str) -> list[str]:
    """A table row's cells, as written (escapes kept)."""
    return [c.strip() for c in _CELL.split(line)[1:-1]]


def row_line(header: list[str], cells: list[str]) -> str:
    """A table row as a line: an order as ``- row 2: kind -> result: reason`` (a rejected
    one's result in bold), any other row its cells one after the other."""
    if [h.casefold() for h in header] == ORDERS_HEADER and len(cells) == 4:
        row, kind, status, reason = cells
        where = f"row {row}" if row.isdigit() else row
        said = f"**{status}**" if status == "rejected" else status
        what = f"{where}: {kind} -> {said}" if kind else f"{where} -> {said}"
        return f"- {what}: {reason}" if reason else f"- {what}"
    return "- " + "; ".join(c for c in cells if c)


def shorten(section: Section, budget: int) -> Section:
    """The section in at most about ``budget`` characters: its first lines, then how many
    more there are (in the attached report)."""
    if len(section.text()) <= budget:
        return section
    kept: list[str] = []
    size = len(section.heading) + 5
    lines = section.lines
    for line in lines:
        if size + len(line) + 1 > budget - 80:
            break
        kept.append(line)
        size += len(line) + 1
    while kept and (not kept[-1].strip() or _BOLD.match(kept[-1])):
        kept.pop()  # no phase's heading without its lines
    left = sum(1 for line in lines[len(kept):] if line.strip())
    note = f"_... and {left} more line{'s' if left != 1 else ''}: the whole report is " \
           f"attached._"
    return Section(section.heading, [*kept, "", note])


def pack(sections: list[Section], limit: int = MAX_CONTENT) -> list[str]:
    """Whole sections packed into messages of at most ``limit`` characters, mentions inert;
    a section longer than a message is split, its later parts under '(continued)'."""
    messages: list[str] = []
    for section in sections:
        text = inert(section.text())
        if not text:
            continue
        if messages and len(messages[-1]) + 2 + len(text) <= limit:
            messages[-1] += "\n\n" + text
        elif len(text) <= limit:
            messages.append(text)
        else:
            messages += _long(section, text, limit)
    return messages


def _long(section: Section, text: str, limit: int) -> list[str]:
    """A section's text in messages, each after the first headed '**Name** (continued)'."""
    go_on = inert(f"**{section.heading}** (continued)") if section.heading else ""
    room = limit - (len(go_on) + 2 if go_on else 0)
    parts = split_message(text, room)
    return [parts[0], *(f"{go_on}\n\n{part}" if go_on else part for part in parts[1:])]

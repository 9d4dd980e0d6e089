"""A markdown report as Discord messages: inert mentions, and split within Discord's limit.

A message holds at most 2,000 characters. A report is split between its paragraphs where it
can (a heading stays with what follows it), else between lines; a table is split only
between rows, and each part after the first repeats the table's header. A line longer than a
whole message (it takes a player typing a novel) is cut at a space.

Players' text reaches these messages (order reasons quote it), so mentions are made inert:
a zero-width space after ``@`` in ``@everyone`` and ``@here``, and after ``<`` in user, role
and channel mentions. Discord's ``allowed_mentions`` (sent with every message, see
:mod:`sheetmaster.app.delivery.discord`) forbids pings anyway; this keeps the text from even
looking like one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: Discord's limit on a message's content.
MAX_CONTENT = 2000
ZWSP = "\u200b"
_MASS = re.compile(r"@(everyone|here)", re.IGNORECASE)
_MENTION = re.compile(r"<(@[!&]?|#)(?=\d)")


def inert(text: str) -> str:
    """``text`` with no mention Discord would act on or show as one."""
    return _MENTION.sub(lambda m: "<" + ZWSP + m.group(1), _MASS.sub("@" + ZWSP + r"\1", text))


@dataclass
class _Block:
    """Lines between blank lines: a paragraph, a list, a heading, or a table."""

    lines: list[str]

    @property
    def table(self) -> bool:
        return len(self.lines) >= 2 and all(line.startswith("|") for line in self.lines)

    @property
    def heading(self) -> bool:
        return len(self.lines) == 1 and self.lines[0].startswith("#")

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def split_message(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """``text`` in messages of at most ``limit`` characters, cut where a reader expects."""
    messages: list[str] = []
    current: list[_Block] = []

    def size(blocks: list[_Block]) -> int:
        return len("\n\n".join(b.text for b in blocks))

    def flush() -> None:
        carried: list[_Block] = []
        while current and current[-1].heading and len(current) > 1:
            carried.insert(0, current.pop())  # a heading goes with what follows it
        if current:
            messages.append("\n\n".join(b.text for b in current))
        current[:] = carried

    for block in _blocks(text):
        if size([*current, block]) <= limit:
            current.append(block)
            continue
        if not all(b.heading for b in current):  # a heading alone waits for its text
            flush()
        if size([*current, block]) <= limit:
            current.append(block)
            continue
        for part in _pieces(block, limit - size(current) - 2 if current else limit, limit):
            if size([*current, part]) > limit:
                flush()
            current.append(part)
    flush()
    return [m for m in messages if m.strip()]


def _blocks(text: str) -> list[_Block]:
    blocks: list[_Block] = []
    lines: list[str] = []
    for line in text.rstrip("\n").split("\n"):
        if line.strip():
            lines.append(line)
        elif lines:
            blocks.append(_Block(lines))
            lines = []
    if lines:
        blocks.append(_Block(lines))
    return blocks


def _pieces(block: _Block, first: int, limit: int) -> list[_Block]:
    """A block too long for one message, in parts: a table between rows (its header again
    at the top of each part), other text between lines, an endless line at a space."""
    header = block.lines[:2] if block.table and _is_rule(block.lines[1]) else []
    rows = block.lines[len(header):]
    parts: list[_Block] = []
    lines = list(header)
    room = first
    for row in rows:
        for line in _cut(row, limit - (len("\n".join(header)) + 1 if header else 0)):
            if lines and len("\n".join([*lines, line])) > room and lines != header:
                parts.append(_Block(lines))
                lines, room = list(header), limit
            lines.append(line)
    if lines and lines != header:
        parts.append(_Block(lines))
    return parts


def _is_rule(line: str) -> bool:
    return set(line.replace("|", "").replace(" ", "")) <= {"-", ":"}


def file_parts(text: str, limit: int) -> list[bytes]:
    """``text`` as UTF-8 files of at most ``limit`` bytes each, cut between lines (a line
    longer than a whole file between characters)."""
    parts: list[bytes] = []
    current: list[bytes] = []
    size = 0
    for line in text.splitlines(keepends=True):
        data = line.encode("utf-8")
        while len(data) > limit:  # an endless line: cut it where a character starts
            at = limit
            while at and (data[at] & 0xC0) == 0x80:
                at -= 1
            pieces = [data[:at], data[at:]]
            if size + len(pieces[0]) > limit and current:
                parts.append(b"".join(current))
                current, size = [], 0
            current.append(pieces[0])
            size += len(pieces[0])
            data = pieces[1]
        if size + len(data) > limit and current:
            parts.append(b"".join(current))
            current, size = [], 0
        current.append(data)
        size += len(data)
    if current:
        parts.append(b"".join(current))
    return parts


def _cut(line: str, limit: int) -> list[str]:
    """A line in pieces of at most ``limit`` characters, cut at spaces where there are any."""
    out = []
    while len(line) > limit:
        at = line.rfind(" ", 0, limit)
        at = at if at > limit // 2 else limit
        out.append(line[:at])
        line = line[at:].lstrip(" ")
    return [*out, line]

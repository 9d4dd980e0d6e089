"""A turn's write cut into requests that Google accepts, fewest first.

"While Sheets API has no hard size limits for an API request, users might experience limits
from different processing components not controlled by Google Sheets. To speed up requests,
we recommend a 2 MB maximum payload." (developers.google.com/sheets/api/limits). Google's front
end refuses a body over 10,485,760 bytes outright ("Request payload size exceeds the limit:
10485760 bytes.").

:func:`plan_write` lays a write out. Its cells come in stages (the undo snapshot, then the
game's cells), and ``last``: the Game tab's cells and the requests that end the write (the
lock's release). When all of it fits ``limit`` as CellData it is one atomic batchUpdate, as
always. Otherwise (see :mod:`sheetmaster.stores.gsheets_split` for why the order is safe):

1. a batchUpdate with ``split_first`` (the signed mark), ``first`` (the undo tab made ready,
   grids grown) and every stage, in order, whose CellData fits whole; the last stage's blocks
   also one by one where they fit;
2. what did not fit, stage by stage, in ``values:batchUpdateByDataFilter`` requests (RAW:
   a cell costs its value, not forty bytes of CellData): a stage's requests all go before the
   next stage's first;
3. a batchUpdate with the last stage's rest if that fits as CellData, ``last_cells``,
   ``last``, ``split_last`` (the mark's removal) and ``tail`` (the lock's release).

Every request is written as JSON text once (:mod:`.gsheets_encode`); bodies are joined
from those texts, so nothing is serialized twice however a write is cut.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sheetmaster.stores.gsheets_encode import (
    Block,
    Cells,
    cell_blocks,
    cell_bound,
    cell_requests,
    value_ranges,
)

#: the payload Google recommends at most, in bytes ("we recommend a 2 MB maximum payload").
MAX_PAYLOAD = 2_000_000
#: Google's hard limit on a request's body, in bytes.
GOOGLE_MAX_PAYLOAD = 10_485_760
#: developer metadata that says a run is writing a turn in several requests; the request that
#: finishes the turn removes it.
WRITE_KEY = "sheetmaster-write"
#: '{"valueInputOption":"RAW","data":[]}' and room to spare.
_ENVELOPE = 64
BATCH, VALUES = "batch", "values"


def payload_size(value: Any) -> int:
    """Bytes of ``value`` as the store sends it (compact JSON, non-ASCII escaped)."""
    return len(request_json(value))


def request_json(value: Any) -> str:
    """``value`` as the store sends it."""
    return json.dumps(value, separators=(",", ":"), allow_nan=False)


@dataclass
class Part:
    """One request of a write: a batchUpdate's requests, or a values write's ranges, each
    as JSON text."""

    kind: str
    texts: list[str] = field(default_factory=list)

    def body(self) -> str:
        if self.kind == BATCH:
            return '{"requests":[' + ",".join(self.texts) + "]}"
        return '{"valueInputOption":"RAW","data":[' + ",".join(self.texts) + "]}"


def pack(texts: Iterable[str], limit: int) -> list[list[str]]:
    """``texts`` in order, in as few lists as fit ``limit`` bytes of body each (a text too
    big for any goes alone)."""
    room = limit - _ENVELOPE
    out: list[list[str]] = [[]]
    size = 0
    for text in texts:
        if out[-1] and size + len(text) + 1 > room:
            out.append([])
            size = 0
        out[-1].append(text)
        size += len(text) + 1
    return [p for p in out if p]


def _without(cells: Cells, blocks: Iterable[Block]) -> Cells:
    """``cells`` less those ``blocks`` write."""
    out = dict(cells)
    for block in blocks:
        for where, row, _ in block.cells():
            if out[where] is cells[where]:
                out[where] = dict(cells[where])
            del out[where][row]
    return {k: v for k, v in out.items() if v}


def _size(texts: Iterable[str]) -> int:
    return sum(len(t) + 1 for t in texts)


def _fit(blocks: Sequence[Block], free: int, room: int) -> list[str] | None:
    """The CellData of ``blocks`` (requests of at most ``room`` bytes) if it fits ``free``
    bytes, else None."""
    texts = [t for b in blocks for t in b.requests(room)]
    return texts if _size(texts) <= free else None


class _Stage:
    """A stage's cells, its CellData blocks built only when they may fit somewhere."""

    def __init__(self, cells: Cells, blank_from: dict[int, int] | None) -> None:
        self.cells = cells
        self.bound = cell_bound(cells)
        self._blank_from = blank_from
        self._blocks: list[Block] | None = None

    @property
    def blocks(self) -> list[Block]:
        if self._blocks is None:
            self._blocks = cell_blocks(self.cells, self._blank_from)
        return self._blocks


def plan_write(stages: Sequence[Cells], *, limit: int, first: Sequence[dict[str, Any]] = (),
               last_cells: Cells | None = None, last: Sequence[dict[str, Any]] = (),
               tail: Sequence[dict[str, Any]] = (), split_first: Sequence[dict[str, Any]] = (),
               split_last: Sequence[dict[str, Any]] = (),
               blank_from: dict[int, int] | None = None) -> list[Part]:
    """The requests of a write, in order (see the module's text). ``blank_from``: see
    :func:`~sheetmaster.stores.gsheets_encode.cell_blocks`."""
    room = limit - _ENVELOPE
    parts = [_Stage(s, blank_from) for s in stages if s]
    ending = [t for b in cell_blocks(last_cells or {}, blank_from)
              for t in cell_requests(b, room)] + [request_json(r) for r in last]
    opening = [request_json(r) for r in first]
    free = room - _size(opening) - _size(ending) - _size(request_json(r) for r in tail)
    if sum(p.bound for p in parts) <= free:
        whole = _fit([b for p in parts for b in p.blocks], free, room)
        if whole is not None:
            return [Part(BATCH, opening + whole + ending + [request_json(r) for r in tail])]
    opening = [request_json(r) for r in split_first] + opening
    ending += [request_json(r) for r in (*split_last, *tail)]
    free = room - _size(opening)
    middle: list[Part] = []
    for i, stage in enumerate(parts):
        final = i == len(parts) - 1
        rest = stage.cells
        if not middle and stage.bound <= free:
            whole = _fit(stage.blocks, free, room)
            if whole is not None:
                opening += whole
                free -= _size(whole)
                continue
        if not middle and final and stage.bound <= free + room - _size(ending):
            added, free = _fill(opening, stage.blocks, free, room)
            rest = _without(stage.cells, added)
        if final and cell_bound(rest) <= room - _size(ending):
            fits = _fit(cell_blocks(rest, blank_from), room - _size(ending), room)
            if fits is not None:
                ending = fits + ending
                continue
        more, closing = _by_values(rest, room, limit, ending if final else None)
        middle += more
        ending = closing if final else ending
    return [p for p in (Part(BATCH, opening), *middle, Part(BATCH, ending)) if p.texts]


def _by_values(cells: Cells, room: int, limit: int, ending: list[str] | None
               ) -> tuple[list[Part], list[str]]:
    """``cells`` in values writes; for the last stage (``ending``: the last request's texts),
    its long runs of one value as repeatCells and, if it fits, its last values write as
    CellData go in the last request instead. The requests, and the last one's texts."""
    runs: list[Block] | None = [] if ending is not None else None
    # ranges of a thirty-second of a request pack tightly; a tiny limit takes whole ones
    ranges = list(value_ranges(cells, max(room // 32, min(room, 16_384)), runs))
    groups = pack([r.text for r in ranges], limit)
    out: list[Part] = []
    if ending is None:
        return [Part(VALUES, g) for g in groups], []
    repeats = [t for b in runs or [] for t in cell_requests(b, room)]
    if _size(repeats) <= room - _size(ending):
        ending = repeats + ending
    else:
        out += [Part(BATCH, g) for g in pack(repeats, limit)]
    if groups:
        taken: dict[tuple[int, int], set[int]] = {}
        for b in runs or []:
            taken.setdefault((b.sheet_id, b.column), set()).update(
                range(b.row + 1, b.row + b.height + 1))
        cells_left: Cells = {}
        for r in ranges[len(ranges) - len(groups[-1]):]:
            by_row, skip = cells[r.where], taken.get(r.where, set())
            cells_left.setdefault(r.where, {}).update(
                (row, by_row[row]) for row in range(r.first, r.last + 1)
                if row in by_row and row not in skip)
        fits = _fit(cell_blocks(cells_left), room - _size(ending), room) \
            if cell_bound(cells_left) <= room - _size(ending) else None
        if fits is not None:
            ending = fits + ending
            groups = groups[:-1]
    return out + [Part(VALUES, g) for g in groups], ending


def _fill(texts: list[str], blocks: Sequence[Block], free: int, room: int
          ) -> tuple[list[Block], int]:
    """Add to ``texts`` the CellData of the blocks that fit ``free`` bytes, one by one; the
    blocks added, and the bytes left."""
    added = []
    for block in blocks:
        fits = _fit([block], free, room) if free > 4 * _ENVELOPE else None
        if fits is not None:
            texts += fits
            free -= _size(fits)
            added.append(block)
    return added, free


def write_marker(value: str) -> dict[str, Any]:
    """The request that marks a turn as being written in several requests (``value``:
    "RUN KIND TURN DIGEST SIGNATURE", see :mod:`~sheetmaster.stores.gsheets_split`)."""
    return {"createDeveloperMetadata": {"developerMetadata": {
        "metadataKey": WRITE_KEY, "metadataValue": value,
        "location": {"spreadsheet": True}, "visibility": "DOCUMENT"}}}


def clear_write_markers() -> dict[str, Any]:
    """The request that removes every write marker (a retried first batch may add two)."""
    return {"deleteDeveloperMetadata": {"dataFilter": {"developerMetadataLookup": {
        "metadataKey": WRITE_KEY}}}}


__all__ = ["BATCH", "GOOGLE_MAX_PAYLOAD", "MAX_PAYLOAD", "Part", "VALUES", "WRITE_KEY",
           "clear_write_markers", "pack", "payload_size", "plan_write", "request_json",
           "write_marker"]
